"""docs/user-guide.md's shell transcript is a session's output, not a memory
of one: its commands are piped into QEMU_ICOUNT=1 make shell (time is
instruction count, so the figures repeat), and every line it shows (all but
"...") must be a line of that session. Counts a tick's placement decides
(switches, preemptions, a thread's row) may differ by 2 %, as QEMU can move
a tick by a few instructions on a loaded host."""
import os
import re
import subprocess
import sys

from tap import check

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
LOOSE = re.compile(r"^switches |^preemptions |^  \w+ +(ready|running|blocked)")


def _same(shown, line):
    if shown == line:
        return True
    if not LOOSE.search(shown) or re.sub(r"\d+", "#", shown) != re.sub(r"\d+", "#", line):
        return False
    return all(abs(int(a) - int(b)) <= max(1, int(b) // 50)
               for a, b in zip(re.findall(r"\d+", shown), re.findall(r"\d+", line)))


def shown_session():
    doc = open(os.path.join(ROOT, "docs", "user-guide.md")).read()
    block = doc[doc.index("shell: type 'demo' to run the demo"):].split("```", 1)[0]
    lines = [ln.rstrip() for ln in block.splitlines() if ln.strip() and ln.strip() != "..."]
    return lines, [ln[len("lokal> "):] for ln in lines if ln.startswith("lokal> ")]


def docs_session_is_real(elf):
    lines, commands = shown_session()
    check(len(commands) >= 3, "the transcript's commands: %r" % commands)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "shell", "run.py"), elf],
                       input=("\n".join(commands) + "\n").encode(), capture_output=True,
                       timeout=300, env=dict(os.environ, QEMU_ICOUNT="1"))
    out = [ln.rstrip() for ln in r.stdout.decode(errors="replace").replace("\r", "").splitlines()]
    check(r.returncode == 0, "session status %d" % r.returncode)
    for ln in lines:
        check(any(_same(ln, o) for o in out), "docs/user-guide.md shows %r; the session printed "
              "no such line" % ln)
