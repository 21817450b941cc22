"""The Python runners' TAP writer (tests/lib/tap.sh is the shell's): ok/not
ok lines to a file and the terminal; a run that reported nothing fails."""
import os
import sys
import time
import traceback


def _same_file(a, b):
    """Whether the two open files are one (TAP=/dev/stdout: the terminal itself)."""
    try:
        sa, sb = os.fstat(a.fileno()), os.fstat(b.fileno())
    except (OSError, ValueError, AttributeError):
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


class Tap:
    def __init__(self, path=None):
        """Results go to the terminal and, when PATH is given, to that file."""
        self.out = open(path, "a") if path else None
        if self.out and _same_file(self.out, sys.stdout):
            self.out.close()
            self.out = None         # TAP=/dev/stdout: one line each, not two
        self.n = 0
        self.failed = 0

    def write(self, line, note=""):
        print(line + note, flush=True)
        if self.out:
            self.out.write(line + "\n")
            self.out.flush()

    def plan(self, count):
        """The plan line "1..COUNT", before the results."""
        self.write("1..%d" % count)

    def result(self, ok, name, note="", detail=()):
        """One numbered result; NOTE goes to the terminal only (timings);
        each DETAIL line becomes a "# " line under a failure."""
        self.n += 1
        if not ok:
            self.failed += 1
        self.write("%s %d - %s" % ("ok" if ok else "not ok", self.n, name), note)
        for d in detail if not ok else ():
            self.write("# " + d)

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
