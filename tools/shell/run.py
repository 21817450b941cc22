#!/usr/bin/env python3
"""`make shell`: the shell image under QEMU with the console on this terminal.

On a terminal, QEMU gets the terminal (Ctrl-C goes to the shell; quit with
`exit`, or Ctrl-A X). With piped input (`echo ps | make shell`), each line
is sent when the prompt appears (the UART drops input sent before it is
up) and, at the end of the input, `exit` ends the run; the status is
QEMU's (the firmware's). A command that runs until a key (`marker test`)
gets Ctrl-C after a second, since piped input has no keyboard to press. QEMU_ICOUNT=1 runs it under -icount
shift=0,align=off,sleep=off (instruction-counted time, as make bench).
    tools/shell/run.py IMAGE.elf
"""
import os
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from console import Console
from console import PROMPT, Timeout, qemu_command


ICOUNT = os.environ.get("QEMU_ICOUNT", "0") == "1"
# What the shell prints when a command runs until a key is pressed.
UNTIL_KEY = rb"press any key to stop"


def piped(elf):
    con = Console(elf, icount=ICOUNT, echo=sys.stdout.buffer)
    try:
        con.prompt(timeout=60)
        for line in sys.stdin.buffer.read().splitlines():
            con.send(line + b"\r")
            if line.strip() == b"exit":
                break
            m = con.expect(re.escape(PROMPT) + b"|" + UNTIL_KEY, timeout=900)
            if m.group(0) != PROMPT:
                time.sleep(1)
                print("\nshell: '%s' runs until a key, which piped input cannot press: "
                      "Ctrl-C sent after 1 s" % line.strip().decode(errors="replace"),
                      file=sys.stderr, flush=True)
                con.send(b"\x03")
                con.prompt(timeout=60)
        else:
            con.send(b"exit\r")
        return con.wait(timeout=60)
    except (Timeout, EOFError) as e:
        sys.stdout.flush()
        print("\nshell: %s" % e, file=sys.stderr)
        status = con.proc.poll()
        return status if status else 1
    finally:
        con.kill()


def main():
    if len(sys.argv) != 2 or not os.path.isfile(sys.argv[1]):
        sys.exit("usage: tools/shell/run.py IMAGE.elf (an existing file)")
    if sys.stdin.isatty():
        print("shell: QEMU console; type 'exit' (or Ctrl-A X) to quit", flush=True)
        cmd = qemu_command(sys.argv[1], icount=ICOUNT, interactive=True)
        os.execvp(cmd[0], cmd)
    sys.exit(piped(sys.argv[1]))


if __name__ == "__main__":
    main()
