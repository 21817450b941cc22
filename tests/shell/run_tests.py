#!/usr/bin/env python3
"""check-shell: the scripted session and the fuzz session against the shell
image under QEMU, as TAP.
    tests/shell/run_tests.py IMAGE.elf TAPFILE [SEED]"""
import os
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "lib"))
sys.path.insert(0, os.path.join(here, "..", "..", "tools", "shell"))
from console import Console  # noqa: E402
from tap import Tap  # noqa: E402
import session  # noqa: E402
import fuzz  # noqa: E402
import interactive  # noqa: E402
import debugger  # noqa: E402
import transcript  # noqa: E402


SESSION = [
    ("boots to the banner, a demo/help hint and the prompt", session.boot),
    ("help lists every command; help CMD describes one", session.help_lists_all),
    ("ps shows the thread table", session.ps_table),
    ("kmaps lists threads and the pkmap pool", session.kmaps_pool),
    ("mem shows zones, heap and stacks", session.mem_figures),
    ("stats counts, stats reset clears (rx bytes exact)", session.stats_and_reset),
    ("uptime advances", session.uptime_runs),
    ("unknown command and usage lines", session.errors),
    ("line editing: DEL, backspace, Ctrl-U, Ctrl-C, too-long line", session.line_editing),
    ("history: up/down over the last 8 lines", session.history),
    ("bench switch|kmap|wakeup print their figures; the first line says plain QEMU is host-paced",
     session.bench_figures),
    ("bytes typed while a command runs are reported as ignored", session.typed_while_running),
    ("Ctrl-C stops a running bench wakeup; it runs again after", session.ctrl_c_stops_bench),
    ("marker on/off, marker test until a key", session.marker),
    ("trace start/stop/dump; lokal-latency reads the console log", session.trace_dump),
    ("Ctrl-C stops a trace dump, which still ends with its frame line", session.trace_dump_ctrl_c),
    ("demo runs once, verifies its data, counts its own switches", session.demo_once),
    ("reset reboots to the prompt", session.reset_reboots),
    ("exit ends the run with status 0", session.exit_status),
]


def main():
    if len(sys.argv) not in (3, 4) or not os.path.isfile(sys.argv[1]):
        sys.exit("usage: tests/shell/run_tests.py IMAGE.elf TAPFILE [SEED]")
    elf, tap_path = sys.argv[1], sys.argv[2]
    seed = int(sys.argv[3]) if len(sys.argv) == 4 else 15
    tap = Tap(tap_path)
    logdir = tempfile.mkdtemp(prefix="check-shell-")

    con = Console(elf)
    try:
        for name, fn in SESSION:
            tap.run(name, fn, con)
    finally:
        con.kill()
        with open(os.path.join(logdir, "session.log"), "wb") as f:
            f.write(con.log)

    con = Console(elf)
    try:
        con.prompt(timeout=60)
        tap.run("fuzz: garbage, NUL, 10 000-byte line, bursts; ps, byte count, no leak, stack",
                fuzz.fuzz, con, seed)
        tap.run("exit after fuzz", session.exit_status, con)
    except Exception as e:  # noqa: BLE001
        tap.fail("fuzz session", str(e)[:300])
    finally:
        con.kill()
        with open(os.path.join(logdir, "fuzz.log"), "wb") as f:
            f.write(con.log)
    tap.run("make shell on a terminal: prompt, ps, Ctrl-C reaches the shell, exit status 0",
            interactive.on_a_terminal, elf)
    tap.run("piped input (printf ... | make shell): one line per prompt, exit at the end",
            interactive.piped, elf)
    tap.run("docs/user-guide.md's shell transcript is a QEMU_ICOUNT=1 make shell session's output",
            transcript.docs_session_is_real, elf)
    tap.run("make debug on a terminal: console shown, Ctrl-C halts the target (running or at "
            "the prompt), gdb and QEMU stay", debugger.make_debug_ctrl_c, elf)
    tap.run("gdb: lokal ps/kmaps equal the firmware's ps/kmaps at a breakpoint, lokal bt of a "
            "switched-out thread leaves the registers alone, lokal trace, one-line errors",
            debugger.gdb_commands, elf)
    # Every other board QEMU models: its shell image answers the same
    # commands (SHELL_BOARD_ELFS="BOARD=ELF ...", the runner's list).
    for pair in os.environ.get("SHELL_BOARD_ELFS", "").split():
        board, belf = pair.split("=", 1)
        con = Console(belf)
        try:
            for name, fn in [("boots to the banner and the prompt", session.boots_on(board)),
                             ("help lists every command", session.help_lists_all),
                             ("ps shows the thread table", session.ps_table),
                             ("kmaps lists threads and the pkmap pool", session.kmaps_pool),
                             ("uptime advances", session.uptime_runs),
                             ("exit ends the run with status 0", session.exit_status)]:
                tap.run("%s: %s" % (board, name), fn, con)
        finally:
            con.kill()
            with open(os.path.join(logdir, "session-%s.log" % board), "wb") as f:
                f.write(con.log)
    small = os.environ.get("SHELL_SMALL_ELF")
    if small:
        tap.run("RAM_MB=8 LOWMEM_MB=8: boots, demo runs, bench says what it needs",
                session.small_memory, small)
    print("# console logs in %s" % logdir)
    sys.exit(0 if tap.close("check-shell") else 1)


if __name__ == "__main__":
    main()
