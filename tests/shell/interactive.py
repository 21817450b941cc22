"""`make shell` on a terminal: run.py under a pty gives QEMU the terminal;
Ctrl-C must reach the shell (not kill QEMU) and `exit` ends with status 0."""
import os
import pty
import re
import select
import subprocess
import sys
import time

from tap import check

HERE = os.path.dirname(os.path.abspath(__file__))
RUN = os.path.join(HERE, "..", "..", "tools", "shell", "run.py")


def _read_until(fd, pattern, log, timeout=60):
    rx = re.compile(pattern, re.S)
    end = time.monotonic() + timeout
    while not rx.search(log[0]):
        left = end - time.monotonic()
        check(left > 0, "no %r on the terminal; got %r" % (pattern, log[0][-300:]))
        r, _, _ = select.select([fd], [], [], min(left, 0.5))
        if r:
            try:
                log[0] += os.read(fd, 4096)
            except OSError:
                break
    m = rx.search(log[0])
    log[0] = log[0][m.end():]
    return m


def on_a_terminal(elf):
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, RUN, elf], stdin=slave, stdout=slave,
                            stderr=slave, close_fds=True)
    os.close(slave)
    log = [b""]
    try:
        _read_until(master, rb"lokal> ", log)
        os.write(master, b"ps\r")
        _read_until(master, rb"shell\s+running.*?lokal> ", log)
        os.write(master, b"half a line\x03")
        _read_until(master, rb"\^C\r*\nlokal> ", log)
        check(proc.poll() is None, "Ctrl-C ended QEMU (status %s)" % proc.returncode)
        os.write(master, b"exit\r")
        status = proc.wait(timeout=30)
        check(status == 0, "exit status %s" % status)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


def piped(elf):
    """`printf 'ps\\nuptime\\n' | make shell`: each line at a prompt, then exit;
    `marker test`, which runs until a key, is stopped and the rest still runs."""
    r = subprocess.run([sys.executable, RUN, elf], input=b"ps\nmarker test\nbogus\nuptime\n",
                       capture_output=True, timeout=120)
    out = r.stdout.decode(errors="replace")
    err = r.stderr.decode(errors="replace")
    check(r.returncode == 0, "status %d: %s" % (r.returncode, r.stderr[-300:]))
    check(re.search(r"marker test: stopped after \d+ cycles", out), "marker test: %r" % out[-500:])
    check("'marker test' runs until a key, which piped input cannot press" in err,
          "no note on stderr: %r" % err[-300:])
    check(re.search(r"lokal> ps\r?\n\s+THREAD", out), "ps: %r" % out[-500:])
    check("unknown command 'bogus' (try help)" in out, "bogus")
    check(re.search(r"lokal> uptime\r?\nup \d+\.\d+ s", out), "uptime: %r" % out[-300:])
    check(re.search(r"lokal> exit\r?\nexit", out), "no exit at the end")
