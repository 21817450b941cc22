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


def settle(con):
    """Wait until the shell has eaten the backlog, then get a clean prompt."""
    con.quiet()
    con.pos = len(con.log)
    # Ctrl-C leaves any escape sequence (its final byte) and abandons the line.
    con.send(b"A\x03")
    con.expect(rb"\^C\r?\n" + re.escape(b"lokal> "), timeout=30)


def junk(rng, n):
    """Random bytes without CR/LF (so no random line runs as a command),
    heavy in NUL, ESC and control characters."""
    pool = [0, 0x1b, 0x03, 0x15, 0x7f, 0x08, ord("["), ord("O"), ord("A"), ord("B")]
    out = bytearray()
    for _ in range(n):
        out.append(rng.choice(pool) if rng.random() < 0.3 else rng.randrange(256))
    return bytes(b for b in out if b not in (10, 13))


def fuzz(con, seed):
    rng = random.Random(seed)
    heap0, free0, _, stack_size = mem_state(con)
    con.cmd("stats reset")
    sent = 0
    # 1. random bytes, in writes of random size, no pauses
    for _ in range(40):
        chunk = junk(rng, rng.randrange(1, 600))
        con.send(chunk)
        sent += len(chunk)
    settle(con)
    sent += 2
    # 2. a 10 000-byte line; its end comes once the burst is read
    con.send(b"x" * 10000)
    sent += 10000
    con.quiet()
    con.pos = len(con.log)
    con.send(b"\r")
    sent += 1
    con.expect(rb"line too long", timeout=30)
    con.prompt()
    # 3. lines with random printable words, some with NULs inside
    for _ in range(30):
        word = "".join(rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 -") for _ in range(rng.randrange(1, 40)))
        data = word.encode()
        if rng.random() < 0.5:
            i = rng.randrange(len(data) + 1)
            data = data[:i] + b"\x00" + data[i:]
        con.send(data + b"\x15")              # Ctrl-U: nothing runs
        sent += len(data) + 1
    # 4. a burst of 20 000 bytes in one write
    burst = junk(rng, 20000)
    con.send(burst)
    sent += len(burst)
    settle(con)
    sent += 2

    out = con.cmd("stats")
    sent += len("stats\r")
    rx = int(re.search(r"^console rx bytes\s+(\d+)", out, re.M).group(1))
    dropped = int(re.search(r"^console rx dropped\s+(\d+)", out, re.M).group(1))
    check(rx == sent, "UART received %d bytes, %d were sent" % (rx, sent))
    check(dropped > 0, "a burst faster than the shell reads dropped nothing?")
    print("# fuzz seed %d: %d bytes sent, %d dropped by the full ring" % (seed, sent, dropped))

    rows = ps_rows(con.cmd("ps"))
    check(rows.get("shell") == ("running", 15) and rows.get("main") == ("blocked", 16)
          and set(rows) == {"idle", "main", "shell"}, "ps after fuzz: %r" % rows)
    heap1, free1, stack_used, _ = mem_state(con)
    check(heap1 == heap0, "heap in use %d -> %d" % (heap0, heap1))
    check(free1 == free0, "free pages %r -> %r" % (free0, free1))
    check(stack_used < stack_size, "shell stack high-water %d of %d" % (stack_used, stack_size))
    print("# shell stack high-water %d of %d bytes" % (stack_used, stack_size))
