"""docs/user-guide.md's shell transcript is a session's output, not a memory
of one: its commands are piped into QEMU_ICOUNT=1 make shell, and every line
it shows must be a line of that session (tests/lib/transcript_match.py; a
thread's row within 2 %). Piped lines arrive when the host sends them, so
what depends on that (a bench's figures, the session's switch counts) is
left out of the transcript, or, for the ps rows' SWITCHES column, compared
as present but not by value."""
import os
import re
import subprocess
import sys

from tap import check
from transcript_match import first_missing, shown_lines

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
LOOSE = re.compile(r"^  \w+ +(ready|running|blocked)")


def switches_masked(line):
    """A ps row with its SWITCHES column as '#': how often a thread ran
    depends on when each piped line arrived (the idle thread runs between
    them), so the column is compared as present, not by value."""
    if not LOOSE.search(line):
        return line
    f = line.split()
    return line if len(f) < 6 else "  %s %s %s # %s" % (f[0], f[1], f[2], " ".join(f[4:]))


def shown_session():
    doc = open(os.path.join(ROOT, "docs", "user-guide.md")).read()
    lines = shown_lines(doc[doc.index("shell: type 'demo' to run the demo"):].split("```", 1)[0])
    return lines, [ln[len("lokal> "):] for ln in lines if ln.startswith("lokal> ")]


def docs_session_is_real(elf):
    lines, commands = shown_session()
    check(len(commands) >= 3, "the transcript's commands: %r" % commands)
    r = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "shell", "run.py"), elf],
                       input=("\n".join(commands) + "\n").encode(), capture_output=True,
                       timeout=300, env=dict(os.environ, QEMU_ICOUNT="1"))
    out = [ln.rstrip() for ln in r.stdout.decode(errors="replace").replace("\r", "").splitlines()]
    check(r.returncode == 0, "session status %d" % r.returncode)
    missing = first_missing([switches_masked(ln) for ln in lines], [switches_masked(ln) for ln in out], LOOSE)
    check(missing is None, "docs/user-guide.md shows %r; the session printed no such line" % missing)
