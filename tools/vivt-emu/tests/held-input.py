#!/usr/bin/env python3
"""Run a command whose standard input stays open and silent, as a person's
terminal or a pipe from a program that has not written yet does.

  held-input.py pty|pipe TIMEOUT OUT [--after SECONDS TEXT] -- COMMAND...

pty:  stdin, stdout and stderr are a pseudo-terminal (the emulator run from
      a shell); what the command prints is copied to OUT.
pipe: stdin is a pipe whose write end is held open; stdout and stderr go to
      OUT and OUT.err.
--after: write TEXT to the input SECONDS after the start (then hold it open).
Prints "STATUS SECONDS" (STATUS "timeout" if the command was killed after
TIMEOUT seconds), and the input is closed only once the command has ended.
"""
import os
import pty
import select
import subprocess
import sys
import time


def main(argv):
    mode, timeout, out = argv[1], float(argv[2]), argv[3]
    rest = argv[4:]
    after = None
    if rest[:1] == ["--after"]:
        after = (float(rest[1]), rest[2].encode())
        rest = rest[3:]
    if rest[:1] != ["--"] or len(rest) < 2 or mode not in ("pty", "pipe"):
        sys.exit(__doc__)
    cmd = rest[1:]
    outf = open(out, "wb")
    if mode == "pty":
        writer, slave = pty.openpty()
        child = subprocess.Popen(cmd, stdin=slave, stdout=slave, stderr=slave)
        reader = writer
    else:
        rd, writer = os.pipe()
        child = subprocess.Popen(cmd, stdin=rd, stdout=outf, stderr=open(out + ".err", "wb"))
        slave, reader = rd, None
    os.close(slave)
    start = time.monotonic()
    status = None
    while status is None:
        now = time.monotonic() - start
        if after and now >= after[0]:
            os.write(writer, after[1])
            after = None
        if now > timeout:
            child.kill()
            child.wait()
            status = "timeout"
            break
        if reader is not None:
            ready, _, _ = select.select([reader], [], [], 0.05)
            if ready:
                try:
                    outf.write(os.read(reader, 65536))
                except OSError:  # EIO: every holder of the terminal's other side is gone
                    reader = None
        else:
            time.sleep(0.05)
        status = child.poll()
    elapsed = time.monotonic() - start
    while reader is not None and select.select([reader], [], [], 0)[0]:
        try:
            data = os.read(reader, 65536)
        except OSError:
            break
        if not data:
            break
        outf.write(data)
    outf.close()
    os.close(writer)
    print(status, "%.1f" % elapsed)


if __name__ == "__main__":
    main(sys.argv)
