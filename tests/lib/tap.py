"""The Python runners' TAP writer (tests/lib/tap.sh is the shell's): ok/not
ok lines to a file and the terminal; a run that reported nothing fails."""
import sys
import time
import traceback


class Tap:
    def __init__(self, path):
        self.out = open(path, "a")
        self.n = 0
        self.failed = 0

    def result(self, ok, name, note=""):
        """One numbered result; NOTE goes to the terminal only (timings)."""
        self.n += 1
        if not ok:
            self.failed += 1
        line = "%s %d - %s" % ("ok" if ok else "not ok", self.n, name)
        print(line + note, flush=True)
        self.out.write(line + "\n")
        self.out.flush()

    def run(self, name, fn, *args):
        t0 = time.monotonic()
        try:
            fn(*args)
            ok, why = True, ""
        except Exception as e:  # noqa: BLE001 - every failure becomes a TAP line
            ok, why = False, ": " + (str(e).splitlines()[0][:300] if str(e) else type(e).__name__)
            traceback.print_exc(file=sys.stderr)
        self.result(ok, name + why, " (%.1fs)" % (time.monotonic() - t0))

    def fail(self, name, why):
        self.result(False, "%s: %s" % (name, why))

    def close(self, what):
        """True when every result passed and there was at least one."""
        if self.n == 0:
            self.fail(what, "reported no result")
        return self.failed == 0


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)
