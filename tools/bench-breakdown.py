# gdb-multiarch script (python): single-step two yields and one soft-IRQ
# round trip of the bench image, or (BREAKDOWN_SHAPE) one event of a
# Thread-Metric shape, and print where the instructions go, per function.
#   gdb-multiarch -q -batch -x tools/bench-breakdown.py IMAGE.elf
# (QEMU runs the image halted with a gdb stub on $BREAKDOWN_PORT; see
# tools/bench-breakdown.sh.) Single-stepping runs with IRQs masked in QEMU,
# so nothing but the path itself is counted.
import collections
import os
import gdb

PORT = os.environ.get("BREAKDOWN_PORT", "1234")
WARMUP = 50                     # yields before the one measured


def pc():
    return int(gdb.parse_and_eval("$pc")) & 0xffffffff


def func_at(addr):
    blk = gdb.current_progspace().block_for_pc(addr)
    while blk is not None and blk.function is None:
        blk = blk.superblock
    if blk is not None:
        return blk.function.name
    sym = gdb.execute("info symbol 0x%x" % addr, to_string=True)
    return sym.split(" ")[0] if "No symbol" not in sym else "0x%08x" % addr


def step_until(done, limit=4000):
    """stepi until done(pc) is true; returns the function of each step."""
    trail = []
    for _ in range(limit):
        addr = pc()
        if done(addr) and trail:
            return trail
        trail.append(func_at(addr))
        gdb.execute("stepi", to_string=True)
    raise gdb.GdbError("breakdown: path did not end within %d instructions" % limit)


def report(title, trail, skip=0):
    """Total of trail, and per function the steps after the first skip."""
    counts = collections.OrderedDict()
    for f in trail[skip:]:
        counts[f] = counts.get(f, 0) + 1
    print("BD: %s: %d instructions" % (title, len(trail)))
    for f, n in counts.items():
        print("BD:   %-28s %4d" % (f, n))


def run_to(location, ignore=0):
    """Continue until the ignore+1-th hit of location; the breakpoint goes."""
    bp = gdb.Breakpoint(location, internal=True)
    bp.ignore_count = ignore
    gdb.execute("continue", to_string=True)
    bp.delete()


def in_function(name):
    sym = gdb.lookup_global_symbol(name) or gdb.lookup_symbol(name)[0]
    blk = gdb.block_for_pc(int(sym.value().address))
    lo, hi = blk.start, blk.end
    return lambda a: lo <= a < hi


gdb.execute("set pagination off")
gdb.execute("set confirm off")
gdb.execute("target remote 127.0.0.1:%s" % PORT, to_string=True)
SHAPE = os.environ.get("BREAKDOWN_SHAPE")


def mask_all_lines():
    """Mask every enabled VIC line (through the board's own call: gdb cannot
    write device registers): time passes while QEMU is stopped, so a tick
    would be pending at every stop, and the shape's window would end."""
    enabled = int(gdb.parse_and_eval("*(volatile unsigned int *)0x10140010")) & 0xffffffff
    for i in range(32):
        if enabled & (1 << i):
            gdb.execute("call (void)board_irq_mask(%d)" % i, to_string=True)


if SHAPE:
    # One event of a Thread-Metric shape (firmware/apps/bench/events.c),
    # SHAPE = "title|thread function|call in its loop": from the call,
    # warmed up, to the next arrival at it (a peer's, for cooperative), the
    # loop's own instructions included, as the suite's figure includes
    # them. The image's interrupts stay masked from the shape's start, so
    # the session ends here (a session per shape).
    title, shape, at = SHAPE.split("|")
    run_to(shape)
    mask_all_lines()
    bp = gdb.Breakpoint("*" + at, internal=True)     # the entry: a tail call has no prologue
    for _ in range(21):
        gdb.execute("continue", to_string=True)
    bp.delete()
    start = pc()
    report(title, step_until(lambda a: a == start))
    gdb.execute("kill", to_string=True)
    raise SystemExit

# One yield among five equal-priority peers (the bench measures them
# first), then one of two: from the call into thread_yield to the next
# thread's return from it (the benchmark loops' own instructions are not
# counted).
run_to("thread_yield", WARMUP)
report("yield, five equal-priority threads, no maps", step_until(in_function("yield_peer")))
run_to("yielder")
run_to("thread_yield", WARMUP)
report("yield, two equal-priority threads, no maps", step_until(in_function("yielder")))

# One IRQ to the woken thread: from the IRQ vector's first instruction to
# irq_high's return from down(). irq_low raises the soft IRQ with IRQs on.
run_to("irq_low")
run_to("irq_raise_soft", 5)
# Time passes while QEMU is stopped, so the tick would become pending at
# every step: mask every other line at the VIC for the walk (through the
# board's own call, as gdb cannot write device registers) and give them
# back afterwards.
line = int(gdb.parse_and_eval("irq_soft_line()"))
enabled = int(gdb.parse_and_eval("*(volatile unsigned int *)0x10140010")) & 0xffffffff
others = [i for i in range(32) if enabled & (1 << i) and i != line]
for i in others:
    gdb.execute("call (void)board_irq_mask(%d)" % i, to_string=True)
run_to("*0xffff0018")
status = int(gdb.parse_and_eval("*(volatile unsigned int *)0x10140000")) & 0xffffffff
if status != 1 << line:
    raise gdb.GdbError("breakdown: the IRQ taken was not the soft IRQ alone (VIC 0x%x)" % status)
# Where the IRQ returns to in irq_low: just after the store that raised it.
resume = (int(gdb.parse_and_eval("$lr")) - 4) & 0xffffffff
trail = step_until(in_function("irq_high"))
# The rest of the round trip: irq_high blocks again, irq_low gets the CPU
# back at the end of the IRQ, and loops to its next raise (single-stepping
# masks IRQs, so the raise's store is passed, and the next arrival at
# resume closes the loop).
back = step_until(lambda a: a == resume)
loop = step_until(lambda a: a == resume)
for i in others:
    gdb.execute("call (void)board_irq_unmask(%d)" % i, to_string=True)
if "bench_irq" not in trail:
    raise gdb.GdbError("breakdown: the IRQ stepped was not the bench's soft IRQ")
report("IRQ vector to woken thread (soft IRQ, no maps)", trail)
report("soft-IRQ round trip, no maps (the IRQ to the woken thread above, then)", trail + back + loop,
       skip=len(trail))
gdb.execute("kill", to_string=True)
