"""Fuzz the console: random bytes, NUL, escape fragments, a 10 000-byte line
and bursts faster than the shell reads; then the shell must answer ps
correctly, account for every byte, and have leaked nothing."""
import random
import re
import time

from tap import check
from session import ps_rows


def mem_state(con):
    out = con.cmd("mem")
    heap = int(re.search(r"heap: (\d+) bytes in use", out).group(1))
    free = tuple(int(x) for x in re.findall(r"pages,\s+(\d+) free", out))
    m = re.search(r"^\s+shell\s+(\d+)/(\d+)", out, re.M)
    return heap, free, int(m.group(1)), int(m.group(2))


def settle(c):
    """Wait until the shell has eaten the backlog, then get a clean prompt.
    'A' ends any escape sequence, Ctrl-U any (too long) line; the word
    echoed before ^C cannot come from the junk, however late it is read."""
    c.con.quiet(1.0)
    c.send(b"A\x15settle\x03")
    c.con.expect(rb"settle\^C\r?\n" + re.escape(b"lokal> "), timeout=60)


def junk(rng, n):
    """Random bytes without CR/LF (so no random line runs as a command),
    heavy in NUL, ESC and control characters."""
    pool = [0, 0x1b, 0x03, 0x15, 0x7f, 0x08, ord("["), ord("O"), ord("A"), ord("B")]
    out = bytearray()
    for _ in range(n):
        out.append(rng.choice(pool) if rng.random() < 0.3 else rng.randrange(256))
    return bytes(b for b in out if b not in (10, 13))


class Counted:
    """The console with a count of every byte sent to it."""

    def __init__(self, con):
        self.con, self.sent = con, 0

    def send(self, data):
        self.con.send(data)
        self.sent += len(data)

    def cmd(self, line, timeout=60):
        self.sent += len(line) + 1
        return self.con.cmd(line, timeout)


def fuzz(con, seed):
    rng = random.Random(seed)
    # A trace to dump later (part 5); a first bench also makes its one-time
    # allocations before the heap is measured.
    con.cmd("trace start")
    con.cmd("bench wakeup 2000", timeout=120)
    con.cmd("trace stop")
    heap0, free0, _, stack_size = mem_state(con)
    con.cmd("stats reset")
    c = Counted(con)
    # 1. random bytes, in writes of random size, no pauses
    for _ in range(40):
        c.send(junk(rng, rng.randrange(1, 600)))
    settle(c)
    # 2. a 10 000-byte line; its end comes once the burst is read
    c.send(b"x" * 10000)
    con.quiet()
    con.pos = len(con.log)
    c.send(b"\r")
    con.expect(rb"line too long", timeout=30)
    con.prompt()
    # 3. lines with random printable words, some with NULs inside
    for _ in range(30):
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 -") for _ in range(rng.randrange(1, 40)))
        data = word.encode()
        if rng.random() < 0.5:
            i = rng.randrange(len(data) + 1)
            data = data[:i] + b"\x00" + data[i:]
        c.send(data + b"\x15")                # Ctrl-U: nothing runs
    # 4. a burst of 20 000 bytes in one write
    c.send(junk(rng, 20000))
    settle(c)
    # 5. a burst while the shell is busy printing a dump (which reads input
    # only to find a Ctrl-C): each byte is dropped by a full ring or ignored
    c.send(b"trace dump\r" + bytes(rng.choice(b"abcdefghij") for _ in range(6000)))
    con.expect(rb"--- lokal-trace-vcd end ---", timeout=120)
    settle(c)

    out = c.cmd("stats")
    rx = int(re.search(r"^console rx bytes\s+(\d+)", out, re.M).group(1))
    dropped = int(re.search(r"^console rx dropped\s+(\d+)", out, re.M).group(1))
    check(rx == c.sent, "UART received %d bytes, %d were sent" % (rx, c.sent))
    ignored = int(re.search(r"^input ignored\s+(\d+)", out, re.M).group(1))
    check(dropped + ignored > 0,
          "a 6000-byte burst during a dump: %d dropped, %d ignored" % (dropped, ignored))
    print("# fuzz seed %d: %d bytes sent, %d dropped by the full ring" % (seed, c.sent, dropped))

    rows = ps_rows(con.cmd("ps"))
    check(rows.get("shell") == ("running", 15) and rows.get("main") == ("blocked", 16)
          and set(rows) == {"idle", "main", "shell"}, "ps after fuzz: %r" % rows)
    heap1, free1, stack_used, _ = mem_state(con)
    check(heap1 == heap0, "heap in use %d -> %d" % (heap0, heap1))
    check(free1 == free0, "free pages %r -> %r" % (free0, free1))
    check(stack_used < stack_size, "shell stack high-water %d of %d" % (stack_used, stack_size))
    print("# shell stack high-water %d of %d bytes" % (stack_used, stack_size))
