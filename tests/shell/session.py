"""Scripted session: every command of the shell image, with its output checked."""
import os
import re
import subprocess
import sys
import tempfile
import time

from tap import check

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

COMMANDS = ["help", "ps", "kmaps", "mem", "stats", "bench", "marker", "trace",
            "demo", "uptime", "reset", "exit"]


def ps_rows(out):
    """THREAD rows of ps: name -> (state, prio)."""
    rows = {}
    for line in out.splitlines():
        m = re.match(r"\s+(\S+)\s+(running|ready|blocked|sleeping|dead)\s+(\d+)\s", line)
        if m:
            rows[m.group(1)] = (m.group(2), int(m.group(3)))
    return rows


def boot(con):
    con.prompt(timeout=60)
    log = con.log.decode(errors="replace")
    check("Lokal on versatilepb" in log, "no banner")
    check("type 'demo' to run the demo, or 'help'" in log, "no line pointing to demo/help")


def boots_on(board):
    """boot(), for the banner of another board's image."""
    def check_boot(con):
        con.prompt(timeout=60)
        log = con.log.decode(errors="replace")
        check("Lokal on %s" % board in log, "no 'Lokal on %s' banner" % board)
        check("type 'demo' to run the demo, or 'help'" in log, "no line pointing to demo/help")
    return check_boot


def help_lists_all(con):
    out = con.cmd("help")
    for name in COMMANDS:
        check(re.search(r"^\s+%s\s" % name, out, re.M), "help does not list %s" % name)
    # Every description starts in the same column, however long a usage is
    # (descriptions as firmware/apps/shell/commands.c gives them).
    table = open(os.path.join(ROOT, "firmware", "apps", "shell", "commands.c")).read()
    descs = re.findall(r'"([^"]*)",\s*cmd_\w+\s*}', table)
    check(len(descs) >= len(COMMANDS), "descriptions in commands.c: %r" % descs)
    cols = {ln.find(d[:20]) for ln in out.replace("\r", "").splitlines() for d in descs if d[:20] in ln}
    check(len(cols) == 1, "help's descriptions start in %d different columns: %r" % (len(cols), out))
    one = con.cmd("help bench").strip().splitlines()
    check(len(one) == 1 and "switch|kmap|wakeup [1..100000]" in one[0], "help bench: %r" % one)
    check("unknown command 'nope'" in con.cmd("help nope"), "help nope")


def ps_table(con):
    rows = ps_rows(con.cmd("ps"))
    check(rows.get("shell") == ("running", 15), "shell row: %r" % rows)
    check(rows.get("main") == ("blocked", 16), "main row: %r" % rows)
    check(rows.get("idle", ("", -1))[1] == 0, "idle row: %r" % rows)


def kmaps_pool(con):
    out = con.cmd("kmaps")
    check(re.search(r"^\s+shell\s+0\s+-$", out, re.M), "shell row: %r" % out)
    m = re.search(r"pkmap: (\d+) slots: (\d+) used, (\d+) count-1 \(awaiting flush\), "
                  r"(\d+) free; (\d+) waiters", out)
    check(m, "no pkmap line: %r" % out)
    slots, used, one, free, waiters = map(int, m.groups())
    check(slots == 512 and used + one + free == slots and waiters == 0,
          "pkmap counts do not add up: %r" % m.group(0))


def mem_figures(con):
    out = con.cmd("mem")
    z = dict((m.group(1), (int(m.group(2)), int(m.group(3)))) for m in
             re.finditer(r"zone (\w+)\s+(\d+) pages,\s+(\d+) free", out))
    # Thread stacks are highmem pages too (arch/arm/mm/stack.c), 4096 bytes each.
    stack_pages = sum(int(m.group(1)) for m in re.finditer(r"^\s+\S+\s+\d+/(\d+)", out, re.M)) // 4096
    check(stack_pages >= 2 and z.get("highmem") == (24576, 24576 - 64 - stack_pages),
          "highmem: %r (bench keeps 64 pages, the stacks %d)" % (z, stack_pages))
    check("lowmem" in z and z["lowmem"][1] <= z["lowmem"][0], "lowmem: %r" % z)
    check(re.search(r"heap: \d+ bytes in use", out), "no heap line")
    m = re.search(r"^\s+shell\s+(\d+)/(\d+)", out, re.M)
    check(m and 0 < int(m.group(1)) < int(m.group(2)) == 4096, "shell stack: %r" % out)


def stats_and_reset(con):
    out = con.cmd("stats")
    for what in ["switches", "preemptions", "kmap switches", "maps restored",
                 "IRQs in kmap switch", "console rx bytes", "console rx dropped"]:
        check(re.search(r"^%s\s+\d+" % what, out, re.M), "stats lacks %s" % what)
    check("counters reset" in con.cmd("stats reset"), "stats reset")
    out = con.cmd("stats")
    # Since the reset the console received exactly "stats\r".
    check(re.search(r"^console rx bytes\s+6$", out, re.M), "rx bytes after reset: %r" % out)
    check(re.search(r"^console rx dropped\s+0 ", out, re.M), "drops: %r" % out)
    sw = int(re.search(r"^switches\s+(\d+)", out, re.M).group(1))
    check(sw < 100, "switches after reset: %d" % sw)


def uptime_runs(con):
    a = b = float(re.search(r"up (\d+\.\d+) s", con.cmd("uptime")).group(1))
    end = time.monotonic() + 10
    while b <= a and time.monotonic() < end:
        time.sleep(0.2)
        b = float(re.search(r"up (\d+\.\d+) s", con.cmd("uptime")).group(1))
    check(b > a, "uptime does not advance: %s then %s" % (a, b))


def errors(con):
    check(con.cmd("frobnicate").strip() == "unknown command 'frobnicate' (try help)",
          "unknown command message")
    # Usage lines name the ranges a number may take.
    bad = {"bench": "usage: bench switch|kmap|wakeup [1..100000]",
           "bench foo": "usage: bench switch|kmap|wakeup [1..100000]",
           "bench wakeup 0": "usage: bench",
           "bench wakeup 12x": "usage: bench",
           "bench wakeup -5": "usage: bench",
           "bench switch 3": "usage: bench",
           "marker": "usage: marker test [1..100000 Hz]|on|off",
           "marker test 0": "usage: marker",
           "marker test 99999999999999999999": "usage: marker",
           "trace": "usage: trace start|stop|dump",
           "stats x": "usage: stats [reset]",
           "ps now": "usage: ps",
           "help a b": "usage: help [CMD]",
           "a b c d e f g h i": "too many arguments"}
    for line, want in bad.items():
        out = con.cmd(line)
        check(want in out, "%r gave %r" % (line, out))


def bench_figures(con):
    out = con.cmd("bench switch", timeout=120)
    # Plain QEMU paces the counter by the host: the first line says so.
    first = out.splitlines()[0] if out else ""
    check("host-paced" in first and "QEMU_ICOUNT=1" in first, "bench's first line: %r" % first)
    check(re.search(r"yield", out) and "bench switch: done" in out, "bench switch: %r" % out[-300:])
    out = con.cmd("bench kmap", timeout=120)
    check("highmem" in out and "bench kmap: done" in out, "bench kmap: %r" % out[-300:])
    out = con.cmd("bench wakeup 300", timeout=120)
    check(re.search(r"local p99\s+\d+", out) and re.search(r"atomic p99\s+\d+", out),
          "bench wakeup: %r" % out[-400:])
    rows = ps_rows(con.cmd("ps"))
    check(set(rows) == {"idle", "main", "shell"}, "bench left threads: %r" % rows)


def ctrl_c_stops_bench(con):
    con.send(b"bench wakeup 100000\r")
    con.expect(rb"wakeup\s+section length \(local\)", timeout=60)
    time.sleep(0.5)
    con.send(b"\x03")
    m = con.expect(rb"stopped after (\d+) wake-ups", timeout=60)
    con.expect(rb"\^C: stopped\r?\n" + re.escape(b"lokal> "), timeout=60)
    check(int(m.group(1)) < 100000, "stopped after %s" % m.group(1))
    rows = ps_rows(con.cmd("ps"))
    check(set(rows) == {"idle", "main", "shell"}, "stopped bench left threads: %r" % rows)
    out = con.cmd("bench wakeup 200", timeout=60)             # and it runs again in full
    check(re.search(r"local p99\s+\d+", out) and "stopped" not in out, "rerun: %r" % out[-300:])


def typed_while_running(con):
    con.send(b"bench wakeup 100000\r")
    con.expect(rb"wakeup\s+section length \(local\)", timeout=60)
    time.sleep(0.3)
    con.send(b"abc")
    time.sleep(0.3)
    con.send(b"\x03")
    m = con.expect(rb"\^C: stopped\r?\n\((\d+) bytes typed while the command ran: ignored\)\r?\n" +
                   re.escape(b"lokal> "), timeout=120)
    check(m.group(1) == b"3", "ignored %s bytes, typed 3" % m.group(1))
    check("ignored" not in con.cmd("uptime"), "the next command reports ignored bytes too")


def marker(con):
    check("switch marker off" in con.cmd("marker off"), "marker off")
    check("switch marker on" in con.cmd("marker on"), "marker on")
    con.send(b"marker test 2000\r")
    con.expect(rb"press any key to stop")
    time.sleep(0.5)
    con.send(b"q")
    m = con.expect(rb"stopped after (\d+) cycles in (\d+) ms")
    con.prompt()
    cycles, ms = int(m.group(1)), int(m.group(2))
    # Edges follow the counter: never more cycles than the time allows. (How
    # close it comes depends on how much CPU QEMU gets: not asserted.)
    check(0 < cycles <= 2 * (ms + 1) + 1,
          "%d cycles at 2000 Hz in %d ms" % (cycles, ms))


def trace_dump(con):
    check("still recording" not in con.cmd("trace start"), "trace start")
    check("still recording" in con.cmd("trace dump"), "dump while recording")
    con.cmd("bench wakeup 50", timeout=60)
    out = con.cmd("trace stop")
    n = int(re.search(r"stopped, (\d+) events", out).group(1))
    check(n > 100, "few events: %d" % n)
    out = con.cmd("trace dump", timeout=60)
    check(out.startswith("--- lokal-trace-vcd begin ---") and
          out.rstrip().endswith("--- lokal-trace-vcd end ---"), "dump framing")
    with tempfile.NamedTemporaryFile(suffix=".log") as log:
        log.write(con.log)                            # the whole console log, as captured
        log.flush()
        r = subprocess.run([sys.executable, "tools/latency/lokal-latency", log.name, "--trace", "shell"],
                           capture_output=True, text=True, timeout=60)
    check(r.returncode == 0 and re.search(r"p99", r.stdout),
          "lokal-latency on the console log: %s %s" % (r.stdout[-300:], r.stderr[-300:]))


def trace_dump_ctrl_c(con):
    # Ctrl-C already waiting when the dump starts: it stops at its first check.
    con.cmd("trace start")
    con.cmd("bench wakeup 50", timeout=60)
    n = int(re.search(r"stopped, (\d+) events", con.cmd("trace stop")).group(1))
    con.send(b"trace dump\r\x03")
    m = con.expect(rb"--- lokal-trace-vcd end ---\r?\n\^C: trace dump stopped after (\d+) of (\d+) "
                   rb"events\r?\n" + re.escape(b"lokal> "), timeout=60)
    check(int(m.group(1)) < n == int(m.group(2)), "stopped after %s of %s (%d recorded)"
          % (m.group(1), m.group(2), n))


def line_editing(con):
    check("THREAD" in con.cmd("pz\x7fs"), "DEL")
    check("THREAD" in con.cmd("pq\x08s"), "backspace")
    check("THREAD" in con.cmd("garbage here\x15ps"), "Ctrl-U")
    con.send(b"bogus\x03")
    con.expect(rb"\^C\r?\n" + re.escape(b"lokal> "))
    check(b"unknown command 'bogus'" not in con.log[-200:], "Ctrl-C ran the line")
    long_line = "x" * 200
    check("line too long" in con.cmd(long_line), "long line accepted")
    con.cmd("")                                   # empty line: nothing, no history


def history(con):
    con.cmd("uptime")
    con.cmd("help ps")
    out = con.cmd("\x1b[A\x1b[A")                  # two back: uptime
    check(out.startswith("up "), "up twice: %r" % out)
    out = con.cmd("\x1b[A\x1b[A\x1b[B")            # help ps, then forward to the rerun uptime
    check(out.startswith("up "), "down: %r" % out)
    for i in range(10):
        con.cmd("help %s" % COMMANDS[i])
    out = con.cmd("\x1b[A" * 12)                   # past the oldest of 8: stays there
    check("  %s " % COMMANDS[2] in out, "oldest of 8 should be help %s: %r" % (COMMANDS[2], out))
    out = con.cmd("\x1bOA")                         # SS3 form, newest
    check("  %s " % COMMANDS[2] in out, "ESC O A: %r" % out)
    out = con.cmd("\x1b[A\x1b[Bps")                # back to the draft line
    check("THREAD" in out, "draft restored: %r" % out)


def demo_once(con):
    # After the benches' many switches: the demo reports its own run's.
    con.cmd("stats reset")
    out = con.cmd("demo", timeout=300)
    check("all highmem data verified" in out and "demo: exit status 0" in out,
          "demo: %r" % out[-400:])
    demo = int(re.search(r"demo: (\d+) context switches", out).group(1))
    total = int(re.search(r"switches\s+(\d+)", con.cmd("stats")).group(1))
    check(0 < demo <= total, "demo claims %d switches, %d happened during it" % (demo, total))
    # Its DMA line counts its own copies' completion interrupts, not the
    # controller's since boot (the wake-up bench above used the PL080 too).
    dma = re.search(r"copied (\d+) scatterlists .*?, (\d+) completion interrupts", out)
    if dma:
        check(dma.group(1) == dma.group(2), "demo's DMA line: %r" % dma.group(0))
    check("already ran" in con.cmd("demo"), "second demo")
    rows = ps_rows(con.cmd("ps"))
    # The kernel's timer thread stays once the demo has armed a timer.
    check(set(rows) - {"timers"} == {"idle", "main", "shell"}, "demo left threads: %r" % rows)


def reset_reboots(con):
    con.send(b"reset\r")
    con.expect(rb"Lokal on versatilepb", timeout=30)
    con.prompt(timeout=60)
    check("THREAD" in con.cmd("ps"), "ps after reset")


def exit_status(con):
    con.send(b"exit\r")
    check(con.wait(timeout=30) == 0, "exit status %s" % con.proc.returncode)


def small_memory(elf):
    """The shell image of RAM_MB=8 LOWMEM_MB=8 (no highmem) boots, the demo
    runs, and bench says what it needs instead of panicking at boot."""
    import os
    from console import Console
    old = os.environ.get("RAM_MB")
    os.environ["RAM_MB"] = "8"          # QEMU's RAM, as make shell RAM_MB=8 gives it
    try:
        con = Console(elf)
    finally:
        if old is None:
            del os.environ["RAM_MB"]
        else:
            os.environ["RAM_MB"] = old
    try:
        con.prompt(timeout=60)
        out = con.cmd("bench switch")
        check("needs 64 free highmem pages" in out and "RAM_MB=8 LOWMEM_MB=8" in out,
              "bench: %r" % out)
        out = con.cmd("demo", timeout=300)
        check("demo: exit status 0" in out, "demo: %r" % out[-300:])
        exit_status(con)
    finally:
        con.kill()
