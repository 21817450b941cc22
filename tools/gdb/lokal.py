"""gdb commands that know Lokal's threads, loaded by `make debug` and
`make debug-board` (source tools/gdb/lokal.py):

    lokal ps            threads: state, priority, switches, local kmaps, stack use
    lokal kmaps         each thread's local kmap slots (VA, pfn), the pkmap
                        pool, and with KMAP_DEFER the slots' owner
    lokal bt THREAD     backtrace of a thread that is not running, from the
                        context its last switch saved
    lokal trace [N]     the last N (default 10) context switches recorded by
                        `trace start` (the switch trace buffer)

Layouts come from the ELF's debug info (struct thread, kmap_layout, ...);
the tables print as the shell's `ps` and `kmaps` do, so the two compare
line by line. Every problem (no such thread, a target not booted yet, a
symbol missing from the image) is one line, never a Python traceback.
"""
import gdb

STACK_FILL = 0xa5               # what firmware/kernel/thread.c fills stacks with
SWITCH_SAVED = ("r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "pc")


class LokalError(Exception):
    pass


def sym(name):
    try:
        return gdb.parse_and_eval(name)
    except gdb.error:
        raise LokalError("no symbol %s in this image: load Lokal's ELF (file build/.../lokal.elf)"
                         % name)


def threads():
    """Every thread, oldest first (the all_threads list, as ps walks it)."""
    head = sym("all_threads")
    if int(head["next"]) in (0, int(head.address)):
        raise LokalError("no threads yet: the kernel has not started (break at app_main, "
                         "or continue and interrupt with Ctrl-C)")
    thread_t = gdb.lookup_type("struct thread")
    off = int(gdb.parse_and_eval("(unsigned long)&((struct thread *)0)->all"))
    out, pos, seen = [], head["next"], 0
    while int(pos) != int(head.address):
        out.append(gdb.Value(int(pos) - off).cast(thread_t.pointer()).dereference())
        pos = pos["next"]
        seen += 1
        if seen > 4096:
            raise LokalError("all_threads does not close: the thread list is corrupt")
    return out


def name_of(t):
    return t["name"].string(length=-1).split("\0")[0]


def current():
    return int(sym("pcpu_hot.curr"))


def state_of(t):
    """As the kernel's ps names it: running, a suspended flag if the image
    has one, else the state enum's name (THREAD_READY -> ready)."""
    if int(t.address) == current():
        return "running"
    if "suspended" in [f.name for f in t.type.fields()] and int(t["suspended"]):
        return "suspended"
    state = str(t["state"])
    return state[len("THREAD_"):].lower() if state.startswith("THREAD_") else "?"


def stack_used(t):
    size = int(t["stack_size"])
    mem = bytes(gdb.selected_inferior().read_memory(int(t["stack"]), size))
    unused = len(mem) - len(mem.lstrip(bytes([STACK_FILL])))
    return size - unused


def km_incr():
    """Slots per map level: 2 with DEBUG_HIGHMEM's guard slots (33 slots)."""
    return 2 if int(sym("kmap_layout")["nr_slots"]) > 16 else 1


def kmaps_of(t):
    """[(slot, va, pfn)] from the outermost map, as the shell lists them."""
    layout = sym("kmap_layout")
    incr = km_incr()
    ctrl = t["kmap_ctrl"]
    out = []
    for slot in range(incr - 1, int(ctrl["idx"]), incr):
        pte = int(ctrl["pteval"][slot]) & 0xffffffff
        out.append((slot, int(layout["slot0_vaddr"]) - (slot << 12), pte >> 12))
    return out


def cmd_ps():
    print("  %-15s %-9s %4s %9s %8s %11s" % ("THREAD", "STATE", "PRIO", "SWITCHES", "KMAPS",
                                            "STACK USED"))
    for t in threads():
        line = "  %-15s %-9s %4d %9d %8d" % (name_of(t), state_of(t), int(t["prio"]),
                                             int(t["switches_in"]),
                                             int(t["kmap_ctrl"]["idx"]) // km_incr())
        if int(t["stack"]):
            line += " %5u/%-5u" % (stack_used(t), int(t["stack_size"]))
        else:
            line += " %11s" % "boot stack"
        print(line)


def pkmap_line():
    layout = sym("kmap_layout")
    n = int(layout["nr_pkmap"])
    counts = sym("pkmap_count")
    used = flush = free = 0
    for i in range(n):
        c = int(counts[i])
        if c == 0:
            free += 1
        elif c == 1:
            flush += 1
        else:
            used += 1
    waiters = 0
    wq = sym("pkmap_map_wait")["waiters"]
    pos = wq["next"]
    while int(pos) != int(wq.address) and waiters < 4096:
        waiters += 1
        pos = pos["next"]
    return "pkmap: %u slots: %u used, %u count-1 (awaiting flush), %u free; %u waiters" % (
        n, used, flush, free, waiters)


def cmd_kmaps():
    print("  %-15s %5s %5s %-10s %s" % ("THREAD", "DEPTH", "SLOT", "VA", "PFN"))
    for t in threads():
        maps = kmaps_of(t)
        line = "  %-15s %5u" % (name_of(t), len(maps))
        if not maps:
            print(line + "     -")
        for k, (slot, va, pfn) in enumerate(maps):
            print("%s %5u 0x%08x 0x%x" % (line if k == 0 else " " * 22, slot, va, pfn))
    print(pkmap_line())
    deferred()


def deferred():
    """KMAP_DEFER builds: which thread's maps the slots still hold."""
    try:
        owner = gdb.parse_and_eval("kmap_slots_owner")
        mask = int(gdb.parse_and_eval("resident_mask"))
    except gdb.error:
        return                  # the eager scheme: slots hold nothing at switch-out
    who = "none"
    if int(owner):
        who = name_of(owner.dereference())
    slots = [i for i in range(32) if mask >> i & 1]
    print("deferred: slots owner %s; %d slots still mapped%s" % (
        who, len(slots), (": " + " ".join(str(i) for i in slots)) if slots else ""))


def find_thread(name):
    for t in threads():
        if name_of(t) == name:
            return t
    raise LokalError("no thread named %r (threads: %s)"
                     % (name, ", ".join(name_of(t) for t in threads())))


def cmd_bt(name):
    t = find_thread(name)
    if int(t.address) == current():
        gdb.execute("backtrace")
        return
    if str(t["state"]) == "THREAD_DEAD":
        raise LokalError("thread %s has exited: no context to unwind" % name)
    sp = int(t["saved_sp"])
    if not sp:
        raise LokalError("thread %s has never run: no saved context yet" % name)
    # __switch_to pushed r4-r12 and lr: the thread resumes at lr with sp above them.
    words = gdb.selected_inferior().read_memory(sp, 4 * len(SWITCH_SAVED))
    saved = [int.from_bytes(bytes(words[4 * i:4 * i + 4]), "little")
             for i in range(len(SWITCH_SAVED))]
    regs = SWITCH_SAVED + ("sp", "lr")
    frame = gdb.selected_frame()
    keep = {r: int(frame.read_register(r)) & 0xffffffff for r in regs + ("cpsr",)}
    values = dict(zip(SWITCH_SAVED, saved), sp=sp + 4 * len(SWITCH_SAVED), lr=saved[-1])
    # A thread not switched in yet holds only the frame thread creation built:
    # no call chain to unwind, only where it will start.
    if values["pc"] == int(sym("(unsigned long)&ret_from_thread_start")):
        entry = int(t["entry"])
        where = gdb.execute("info symbol 0x%x" % entry, to_string=True).split(" in section")[0]
        print("thread %s (%s) has not run yet: it starts at %s (arg 0x%08x)"
              % (name, state_of(t), where.strip(), int(t["arg"]) & 0xffffffff))
        return
    print("thread %s (%s), resumes at 0x%08x, sp 0x%08x:" % (name, state_of(t), values["pc"],
                                                             values["sp"]))
    try:
        for r in regs:
            gdb.execute("set $%s = %d" % (r, values[r]), to_string=True)
        gdb.execute("backtrace")
    finally:
        # Put the running CPU's registers back exactly: the target sees nothing.
        for r in regs + ("cpsr",):
            gdb.execute("set $%s = %d" % (r, keep[r]), to_string=True)


def has_trace():
    """Whether the image links the switch trace (firmware/lib/trace.c); a
    boot stub or an image built without it has no buffer to read."""
    try:
        return int(gdb.parse_and_eval("&'trace.c'::events")) != 0
    except gdb.error:
        return False


def cmd_trace(n):
    count = int(sym("'trace.c'::nr_events"))
    ev = sym("'trace.c'::events")
    names = {int(t["id"]): name_of(t) for t in threads()}
    records, start, kmaps, tid = [], None, 0, 0
    for i in range(count):
        e = ev[i]
        sig, val, time = int(e["signal"]), int(e["value"]), int(e["time"])
        if sig == 0 and val:            # TRACE_SWITCH high: a switch starts
            start = time
        elif sig == 2:
            kmaps = val
        elif sig == 3:
            tid = val
        elif sig == 0 and start is not None:
            records.append((start, (time - start) & 0xffffffff, kmaps, tid))
            start = None
    if not count:
        print("trace: empty ('trace start' in the shell, or trace_start(), records switches)")
        return
    print("trace: %d events, %d switches%s; the last %d:" % (
        count, len(records), " (recording)" if int(sym("pcpu_hot.trace_active")) else "",
        min(n, len(records))))
    print("  %12s %10s %5s  %s" % ("COUNTER", "TICKS", "KMAPS", "TO THREAD"))
    for start, ticks, k, tid in records[-n:]:
        print("  %12u %10u %5u  %s" % (start, ticks, k, names.get(tid, "#%d" % tid)))


class Lokal(gdb.Command):
    """Lokal kernel state: lokal ps | kmaps | bt THREAD | trace [N]."""

    def __init__(self):
        super().__init__("lokal", gdb.COMMAND_DATA, prefix=False)

    def invoke(self, arg, from_tty):
        words = gdb.string_to_argv(arg)
        try:
            # Known from the ELF alone, so said before asking for a target.
            if words[:1] == ["trace"] and not has_trace():
                raise LokalError("this image has no switch trace (firmware/lib/trace.c is not "
                                 "linked into it): load an image that records switches")
            if gdb.selected_inferior().pid == 0:
                raise LokalError("no target: connect first (make debug does)")
            if words == ["ps"]:
                cmd_ps()
            elif words == ["kmaps"]:
                cmd_kmaps()
            elif len(words) == 2 and words[0] == "bt":
                cmd_bt(words[1])
            elif words[:1] == ["trace"] and len(words) <= 2:
                n = 10
                if len(words) == 2:
                    if not words[1].isdigit() or not 1 <= int(words[1]) <= 100000:
                        raise LokalError("trace N: N is a number of switches, 1..100000")
                    n = int(words[1])
                cmd_trace(n)
            else:
                raise LokalError("usage: lokal ps | lokal kmaps | lokal bt THREAD | lokal trace [N]")
        except LokalError as e:
            raise gdb.GdbError("lokal: %s" % e)
        except gdb.MemoryError as e:
            raise gdb.GdbError("lokal: cannot read the target's memory (%s): is it booted?" % e)
        except gdb.error as e:
            raise gdb.GdbError("lokal: %s" % e)


Lokal()
