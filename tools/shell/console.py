"""Drive the shell image under QEMU over its serial port (plain pipes).

The console comes up only after the banner: PL011 initialisation drops
anything sent earlier, so every line is sent after the prompt is seen.
"""
import os
import re
import select
import subprocess
import time

PROMPT = b"lokal> "


QEMU_RUN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "qemu-run.sh")


def qemu_command(elf, icount=False, interactive=False):
    """The command that runs ELF under QEMU: tools/qemu-run.sh, which builds
    the command line from the board's variables and, with no time limit,
    becomes QEMU itself (so signals and the exit status are QEMU's)."""
    return ["env", "QEMU_TIMEOUT=0", "QEMU_ICOUNT=%d" % icount,
            "QEMU_CONSOLE=%s" % ("mux" if interactive else "stdio"), QEMU_RUN, elf]


class Timeout(Exception):
    pass


class Console:
    """A running shell image; output is kept whole in self.log."""

    def __init__(self, elf, icount=False, echo=None):
        self.proc = subprocess.Popen(qemu_command(elf, icount), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self.log = b""
        self.pos = 0            # where the next expect() starts looking
        self.echo = echo        # a binary file to copy output to, or None
        os.set_blocking(self.proc.stdout.fileno(), False)

    def _read(self, timeout):
        r, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not r:
            return False
        data = self.proc.stdout.read()
        if not data:
            if self.proc.poll() is None:
                time.sleep(0.01)
                return True
            raise EOFError("QEMU exited (status %s)" % self.proc.returncode)
        self.log += data
        if self.echo:
            self.echo.write(data)
            self.echo.flush()
        return True

    def expect(self, pattern, timeout=30):
        """Wait for pattern (bytes regex) after the last match; return the match."""
        rx = re.compile(pattern, re.S)
        end = time.monotonic() + timeout
        while True:
            m = rx.search(self.log, self.pos)
            if m:
                self.pos = m.end()
                return m
            left = end - time.monotonic()
            if left <= 0:
                raise Timeout("no %r within %ss; output since: %r"
                              % (pattern, timeout, self.log[self.pos:][-600:]))
            self._read(min(left, 0.5))

    def quiet(self, period=0.5, timeout=60):
        """Wait until the console has printed nothing for period seconds."""
        end = time.monotonic() + timeout
        while self._read(period):
            if time.monotonic() > end:
                raise Timeout("console still busy after %ss" % timeout)

    def send(self, data):
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def prompt(self, timeout=30):
        self.expect(re.escape(PROMPT), timeout)

    def cmd(self, line, timeout=60):
        """Send line (at a prompt) and return what it printed before the next prompt."""
        self.send(line.encode() + b"\r")
        start = self.pos
        self.expect(re.escape(PROMPT), timeout)
        out = self.log[start:self.pos - len(PROMPT)]
        # drop the echoed line itself
        nl = out.find(b"\n")
        return out[nl + 1:].replace(b"\r", b"").decode(errors="replace")

    def wait(self, timeout=30):
        """Wait for QEMU to exit, reading the rest of its output; return its status."""
        end = time.monotonic() + timeout
        while self.proc.poll() is None or self._drain():
            if time.monotonic() > end:
                raise Timeout("QEMU still running after %ss" % timeout)
            try:
                self._read(0.2)
            except EOFError:
                break
        return self.proc.wait()

    def _drain(self):
        try:
            return self._read(0)
        except EOFError:
            return False

    def kill(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
