"""A small TAP runner: ok/not ok lines to a file and the terminal."""
import sys
import time
import traceback


class Tap:
    def __init__(self, path):
        self.out = open(path, "a")
        self.n = 0
        self.failed = 0

    def run(self, name, fn, *args):
        self.n += 1
        t0 = time.monotonic()
        try:
            fn(*args)
            line = "ok %d - %s" % (self.n, name)
        except Exception as e:  # noqa: BLE001 - every failure becomes a TAP line
            self.failed += 1
            line = "not ok %d - %s: %s" % (self.n, name, str(e).splitlines()[0][:300] if str(e) else type(e).__name__)
            traceback.print_exc(file=sys.stderr)
        print("%s (%.1fs)" % (line, time.monotonic() - t0), flush=True)
        self.out.write(line + "\n")
        self.out.flush()

    def fail(self, name, why):
        self.n += 1
        self.failed += 1
        line = "not ok %d - %s: %s" % (self.n, name, why)
        print(line, flush=True)
        self.out.write(line + "\n")
        self.out.flush()


def check(cond, msg):
    if not cond:
        raise AssertionError(msg)
