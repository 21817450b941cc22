#!/usr/bin/env python3
"""Turn the bench consoles into build/bench/results.json, a table and plots.

    tools/bench-report.py OUTDIR WAKES

Reads OUTDIR/console-{eager,defer}.log (written by tools/bench.sh), cuts out the
JSON block and the trace VCDs each run printed, writes results.json and the
VCDs, cross-checks the wake-up statistics with tools/latency (the same tool
that reads logic-analyzer captures), and draws the plots with gnuplot.
"""
import datetime
import json
import os
import re
import subprocess
import sys

# The two kmap schemes: Linux's eager teardown and restore, and the deferred flush.
VARIANTS = {"eager": "console-eager.log", "defer": "console-defer.log"}
TARGET_YIELD_NS = 48            # per switch, two equal-priority threads
TARGET_YIELD_PEERS_NS = 48      # per yield, five equal-priority threads counting and yielding
TARGET_IRQ_TO_THREAD_NS = 150   # IRQ vector to the woken thread's return from down()
TARGET_IRQ_TRIP_NS = 280        # soft-IRQ round trip, no maps
TARGET_MAP_RATIO = 1.10
TARGET_P99_RATIO = 20.0
TARGET_DEFER_ONE_SIDE = 1.2     # deferred: yield, one side holds 16 / yield, no maps
TARGET_DEFER_WAKEUP = 1.2       # deferred: wake-up p99, workers hold 2 maps / hold none
TARGET_DEFER_MAP_UNMAP = 1.05   # deferred / eager kmap_local_page+kunmap_local: the price of the default
TARGET_DMA_WAKEUP = 1.05        # wake-up p99 while the PL080 copies / while the CPU copies the same pages
# The eight RTOS event shapes (firmware/apps/bench/events.c, counted as the
# Thread-Metric suite counts them): results.json key, bench name, and ThreadX's
# and FreeRTOS's events per second of virtual time from the suite run unchanged
# on the same QEMU command line. Under -icount shift=0 one instruction is one
# virtual ns, so 1e9 / (events per second) is instructions per event.
EVENT_SHAPES = [
    ("events_basic", "basic", 108447, 108447),
    ("events_cooperative", "cooperative", 13888693, 13513404),
    ("events_preemptive", "preemptive", 4051810, 3289447),
    ("events_interrupt", "interrupt", 8064460, 6493454),
    ("events_interrupt_preemption", "interrupt preemption", 2597382, 2403827),
    ("events_message", "message", 7812418, 2973954),
    ("events_synchronization", "synchronization", 18867724, 6756702),
    ("events_memory", "memory", 16666490, 10988922),
]
# Each of the seven non-basic shapes: at least this much faster than ThreadX
# (at most ThreadX's instructions per event / 1.10).
TARGET_EVENTS_VS_THREADX = 1.10
# What one event is, shape by shape (as docs/bench.md says).
EVENT_WHAT = {
    "basic": "one pass over a 1024-word array, each word read twice and written, the counter read from memory",
    "cooperative": "one relinquish (yield) and count by one of five equal-priority threads without time slicing",
    "preemptive": "one count by one of five threads of rising priority: each resumes the next more urgent "
                  "one, counts and suspends itself (a round of the five is five events)",
    "interrupt": "one software interrupt: the handler counts and puts a semaphore; the thread that raised "
                 "it gets it back (get-or-fail, status checked) and counts",
    "interrupt preemption": "one software interrupt: the handler counts and resumes a more urgent thread, "
                            "which counts and suspends itself; the raising thread then counts",
    "message": "one 16-byte message sent to a queue and received back (neither waits), its last word "
               "checked and then changed",
    "synchronization": "one get (get-or-fail) and put of a semaphore, the put's status checked",
    "memory": "one 128-byte block allocated (never waiting) from a pool and freed, the free's status checked",
}


def insns_per_event(rate):
    return 1e9 / rate if rate else None


def blocks(text, name):
    pat = re.compile(r"--- %s begin ---\r?\n(.*?)--- %s end ---" % (name, name), re.S)
    return [m.group(1).replace("\r", "") for m in pat.finditer(text)]


def load(outdir, log):
    text = open(os.path.join(outdir, log), errors="replace").read()
    js = blocks(text, "lokal-bench-json")
    if not js:
        sys.exit("bench-report: no result block in %s" % log)
    res = json.loads(js[-1])["results"]
    vcds = {}
    for vcd in blocks(text, "lokal-trace-vcd"):
        m = re.search(r'\$comment lokal trace "([^"]+)"', vcd)
        vcds[m.group(1) if m else "trace%d" % len(vcds)] = vcd
    return res, vcds


def value(res, group, name):
    for r in res:
        if r["group"] == group and r["name"] == name:
            return r.get("ns", r.get("x", r.get("ev/s", r.get("%"))))
    return None


# The figures compared across boards (tools/bench.sh runs the bench image on
# every board QEMU models): key, group, name in the bench's results.
BOARD_FIGURES = [
    ("yield_no_maps_ns", "switch", "yield, both hold 0"),
    ("yield_5_peers_ns", "switch", "yield, 5 equal-priority peers, no maps"),
    ("irq_round_trip_ns", "switch", "irq round trip, low 0 high 0"),
    ("irq_round_trip_low_holds_16_ns", "switch", "irq round trip, low 16 high 0"),
    ("yield_one_side_holds_16_ns", "switch", "yield, one side holds 16"),
    ("map_unmap_highmem_ns", "map+unmap", "highmem, kmap_local_page"),
    ("wakeup_p99_nomap_ns", "wakeup", "nomap p99"),
    ("wakeup_p99_local_ns", "wakeup", "local p99"),
    ("wakeup_p99_dma_ns", "wakeup", "dma p99"),
    ("events_interrupt_per_s", "events", "interrupt"),
    ("events_message_per_s", "events", "message"),
]


def wakeup_pins(outdir):
    """lokal-latency wakeup's figures for each scheme that bench.sh ran on
    vivt-emu's pins (wakeup-pins-SCHEME.json), by scheme."""
    got = {}
    for v in VARIANTS:
        path = os.path.join(outdir, "wakeup-pins-%s.json" % v)
        if os.path.exists(path):
            with open(path) as f:
                got[v] = json.load(f)
    return got


def board_figures(res):
    return {key: value(res, group, name) for key, group, name in BOARD_FIGURES}


def other_boards(outdir):
    """{board: {scheme: figures}} from the runs tools/bench.sh listed in boards.txt."""
    path = os.path.join(outdir, "boards.txt")
    out = {}
    if not os.path.exists(path):
        return out
    for line in open(path):
        if not line.strip():
            continue
        board, variant, log = line.split()
        out.setdefault(board, {})[variant] = board_figures(load(outdir, log)[0])
    return out


def default_board():
    for line in open("config.table"):
        f = line.split()
        if len(f) >= 3 and f[0] == "BOARD" and f[1] == "any":
            return f[2]
    return "default"


def breakdown(outdir):
    """The single-step breakdown (tools/bench-breakdown.sh): text and path totals."""
    path = os.path.join(outdir, "breakdown.txt")
    if not os.path.exists(path):
        return None, {}
    text = open(path).read()
    totals = {m.group(1): int(m.group(2))
              for m in re.finditer(r"^(\S.*): (\d+) instructions$", text, re.M)}
    return text, totals


def main():
    outdir, wakes = sys.argv[1], int(sys.argv[2])
    runs = {}
    for variant, log in VARIANTS.items():
        res, vcds = load(outdir, log)
        files = {}
        for label, vcd in vcds.items():
            path = os.path.join(outdir, "wakeup-%s-%s.vcd" % (label, variant))
            with open(path, "w") as f:
                f.write(vcd)
            files[label] = path
        runs[variant] = {"results": res, "vcd": files}

    lin, defer = runs["eager"]["results"], runs["defer"]["results"]
    counts = [0, 1, 2, 4, 8, 16]

    # Figure 1: switch cost vs maps, both algorithms, with the breakdown.
    rows = []
    # The scheduler's own figures come from the build users get: the deferred scheme.
    dflt = defer
    floor = value(dflt, "floor", "register switch only")
    map_floor = value(lin, "floor", "one map moved (flush, PTE clear, PTE set, 2 TLB)")
    for k in counts:
        row = {"maps": k}
        for variant, res in (("eager", lin), ("defer", defer)):
            row[variant] = {
                "yield_both": value(res, "switch", "yield, both hold %d" % k),
                "yield_one_side": value(res, "switch", "yield, one side holds %d" % k),
                "irq_low": value(res, "switch", "irq round trip, low %d high 0" % k),
                "irq_high": value(res, "switch", "irq round trip, low 0 high %d" % k),
                "teardown": value(res, "switch-part", "kmap teardown %d" % k),
                "restore": value(res, "switch-part", "kmap restore %d" % k),
            }
        rows.append(row)

    p99 = {v: {m: value(runs[v]["results"], "wakeup", "%s p99" % m) for m in ("atomic", "local", "nomap")}
           for v in runs}
    # The deferred scheme's ratios, each within one run, for both schemes.
    one_side = {v: (rows[-1][v]["yield_one_side"] / rows[0][v]["yield_both"])
                if rows[-1][v]["yield_one_side"] and rows[0][v]["yield_both"] else None for v in runs}
    wake_maps = {v: p99[v]["local"] / p99[v]["nomap"] if p99[v]["local"] and p99[v]["nomap"] else None
                 for v in runs}
    hi_local = value(lin, "map+unmap", "highmem, kmap_local_page")
    left = {v: value(runs[v]["results"], "map+unmap", "highmem, kmap_local_page, slot left by another thread")
            for v in runs}
    yield0 = value(dflt, "switch", "yield, both hold 0")
    yield5 = value(dflt, "switch", "yield, 5 equal-priority peers, no maps")
    per_map = None
    if rows[-1]["eager"]["teardown"] and map_floor:
        per_map = (rows[-1]["eager"]["teardown"] + rows[-1]["eager"]["restore"]) / 16.0
    hi_local_defer = value(defer, "map+unmap", "highmem, kmap_local_page")

    # Cross-check the wake-up figures with the capture tool.
    tool = os.path.join("tools", "latency", "lokal-latency")
    tool_out = {}
    if os.access(tool, os.X_OK):
        for variant in runs:
            f = runs[variant]["vcd"]
            if "kmap_atomic" in f and "kmap_local" in f:
                jpath = os.path.join(outdir, "latency-%s.json" % variant)
                subprocess.run([tool, "--compare", f["kmap_atomic"], f["kmap_local"],
                                "--labels", "kmap_atomic,kmap_local", "--json", jpath,
                                "--plot", os.path.join(outdir, "wakeup-cdf-%s.png" % variant)],
                               check=True, stdout=subprocess.DEVNULL)
                tool_out[variant] = json.load(open(jpath))
                # The capture tool must reproduce the firmware's own figures.
                for inp, mode in zip(tool_out[variant]["inputs"], ("atomic", "local")):
                    for key in ("min", "median", "p99", "max"):
                        fw = value(runs[variant]["results"], "wakeup", "%s %s" % (mode, key))
                        if inp["wake"].get(key) != fw:
                            sys.exit("bench-report: %s %s %s: firmware %s ns, tools/latency %s ns"
                                     % (variant, mode, key, fw, inp["wake"].get(key)))

    bd_text, bd = breakdown(outdir)
    irq_to_thread = bd.get("IRQ vector to woken thread (soft IRQ, no maps)")
    irq_trip = value(dflt, "switch", "irq round trip, low 0 high 0")

    summary = {
        "date": datetime.date.today().isoformat(),
        "command": "make bench",
        "qemu": subprocess.run(["qemu-system-arm", "--version"], capture_output=True,
                               text=True).stdout.splitlines()[0],
        "time_base": "qemu -icount shift=0,align=off,sleep=off: 1 virtual ns per guest "
                     "instruction; 24 MHz counter, resolution 41.67 ns",
        "wakeups_per_mode": wakes,
        "switch_vs_maps": rows,
        "targets": {
            "yield_no_maps_ns": {"target": TARGET_YIELD_NS, "measured": yield0},
            "yield_5_peers_ns": {"target": TARGET_YIELD_PEERS_NS, "measured": yield5,
                                 "what": "five equal-priority threads, each increments a counter and yields; "
                                         "time per yield (FreeRTOS 74, ThreadX 72 on the same QEMU)"},
            "irq_to_woken_thread_ns": {"target": TARGET_IRQ_TO_THREAD_NS, "measured": irq_to_thread,
                                       "method": "gdb-multiarch single-step, exact instruction count"},
            "irq_round_trip_ns": {"target": TARGET_IRQ_TRIP_NS, "measured": irq_trip},
            "per_map_vs_floor": {"target": TARGET_MAP_RATIO, "floor_ns": map_floor,
                                 "measured_ns": per_map,
                                 "measured": per_map / map_floor if per_map and map_floor else None},
            "wakeup_p99_atomic_over_local": {"target": TARGET_P99_RATIO,
                                             "measured": {v: p99[v]["atomic"] / p99[v]["local"]
                                                          for v in p99 if p99[v]["local"]}},
            "defer_one_side_16_over_no_maps": {
                "target": TARGET_DEFER_ONE_SIDE, "measured": one_side["defer"],
                "what": "KMAP_DEFER=1: yield where one side holds 16 maps / yield with no maps (same run)",
                "other_schemes": {"eager": one_side["eager"]}},
            "defer_wakeup_p99_maps_over_no_maps": {
                "target": TARGET_DEFER_WAKEUP, "measured": wake_maps["defer"],
                "what": "KMAP_DEFER=1: wake-up p99, workers holding 2 local maps / workers holding none (same run)",
                "other_schemes": {"eager": wake_maps["eager"]}},
            "defer_map_unmap_over_eager": {
                "target": TARGET_DEFER_MAP_UNMAP,
                "measured": hi_local_defer / hi_local if hi_local_defer and hi_local else None,
                "what": "highmem kmap_local_page+kunmap_local, KMAP_DEFER=1 build / KMAP_DEFER=0 build "
                        "(same make bench run)",
                "ns": {"defer": hi_local_defer, "eager": hi_local}},
            "defer_map_unmap_after_deferred_over_eager_map_unmap": {
                "target": None,
                "measured": left["defer"] / hi_local if left["defer"] and hi_local else None,
                "what": "KMAP_DEFER=1 kmap_local_page+kunmap_local that must flush another thread's slot first "
                        "/ eager scheme highmem kmap_local_page+kunmap_local",
                "ns": {"defer_after_deferred": left["defer"], "eager_highmem": hi_local}},
        },
        "runs": {v: {"results": runs[v]["results"], "vcd": runs[v]["vcd"]} for v in runs},
        "capture_tool": tool_out,
    }
    for key, name, threadx, freertos in EVENT_SHAPES:
        rates = {v: value(runs[v]["results"], "events", name) for v in runs}
        insns = {v: insns_per_event(rates[v]) for v in runs}
        tx = insns_per_event(threadx)
        m = insns["eager"]
        summary["targets"][key] = {
            "target": round(tx / TARGET_EVENTS_VS_THREADX, 1), "measured": round(m, 1) if m else None,
            "unit": "instructions per event (virtual ns per event under -icount shift=0); fewer is better",
            "what": "one event: %s. Counted as the Thread-Metric suite counts, through an out-of-line porting "
                    "layer (firmware/apps/bench/tm_port.c); measured in the Linux-restore build (KMAP_DEFER=0), "
                    "100 Hz tick running; goal: at least %.2fx ThreadX" % (EVENT_WHAT[name], TARGET_EVENTS_VS_THREADX),
            "vs_threadx": round(tx / m, 3) if m else None,
            "met": bool(m and m <= round(tx / TARGET_EVENTS_VS_THREADX, 1)),
            "threadx": round(tx, 1), "freertos": round(insns_per_event(freertos), 1),
            "events_per_s": rates["eager"],
            "other_schemes": {"defer": round(insns["defer"], 1) if insns["defer"] else None}}
    b = summary["targets"]["events_basic"]
    b["target"] = None
    b["met"] = None
    b["what"] = ("one event: %s. Not a speed goal: it measures the CPU share the RTOS leaves to a thread that "
                 "never blocks, %s %% here (the same passes with interrupts off are 100 %%); ThreadX and "
                 "FreeRTOS: %.1f instructions per pass" % (EVENT_WHAT["basic"],
                 value(lin, "events", "basic, share of the CPU left to the thread"),
                 insns_per_event(EVENT_SHAPES[0][2])))
    # Streaming DMA (firmware/apps/bench/dma.c), from the build users get.
    dma_p99 = {v: value(runs[v]["results"], "wakeup", "dma p99") for v in runs}
    m = re.search(r"resolution (\d+\.\d+) ns", open(os.path.join(outdir, VARIANTS["defer"]), errors="replace").read())
    resolution = float(m.group(1)) if m else None
    dma_ratio = {v: dma_p99[v] / p99[v]["local"] if dma_p99[v] and p99[v]["local"] else None for v in runs}
    pins = wakeup_pins(outdir)
    firmware = {"measured": dma_ratio["defer"], "p99_ns": {"dma": dma_p99["defer"], "cpu_copy": p99["defer"]["local"]},
                # The firmware times a wake-up with the board's counter: a
                # p99 of a few hundred ns moves by a whole tick of it at once.
                "counter_resolution_ns": resolution,
                "one_tick_ratio": round((p99["defer"]["local"] + resolution) / p99["defer"]["local"], 3)
                if p99["defer"]["local"] and resolution else None,
                "other_schemes": {"eager": dma_ratio["eager"]}}
    target = {"target": TARGET_DMA_WAKEUP,
              "what": "KMAP_DEFER=1: wake-up p99 while two workers copy highmem pages with the PL080 (4-page "
                      "scatterlists: map, transfer, completion interrupt, unmap) / while they copy the same "
                      "pages with the CPU through local maps (same run)"}
    if pins.get("defer"):
        dm, lo = pins["defer"]["modes"]["dma"], pins["defer"]["modes"]["local"]
        target.update(measured=pins["defer"]["ratios"]["dma/local"], **{"from": "pins"},
                      how="the same bench image on vivt-emu, its pins: the timer's interrupt line to the "
                          "woken thread, exact instructions (lokal-latency wakeup)",
                      p99_ns={"dma": dm["p99"], "cpu_copy": lo["p99"]},
                      # What the wake-ups above the DMA mode's p99 waited behind (other interrupt lines).
                      dma_above_p99=dm.get("above_p99"),
                      other_schemes={"eager": pins["eager"]["ratios"].get("dma/local") if pins.get("eager") else None},
                      firmware=firmware)
    else:
        target.update(firmware, **{"from": "firmware"})
    target["met"] = bool(target["measured"] and target["measured"] <= TARGET_DMA_WAKEUP)
    summary["targets"]["dma_wakeup_p99_ratio"] = target
    if pins:
        summary["wakeup_pins"] = {
            "what": "each bench wake-up mode read from the pins of the same image on vivt-emu: ns from the "
                    "timer's interrupt line to the woken thread, exact (1 instruction = 1 ns), beside the "
                    "firmware's p99 (its counter's resolution, from the expiry)",
            "schemes": pins}
    summary["dma"] = {
        "what": "ns of virtual time = CPU instructions under -icount shift=0. map+unmap: dma_map_page + "
                "dma_unmap_page of a whole page with a dirty line, the cache maintenance included (QEMU "
                "runs each maintenance instruction as one instruction; the cycles a real ARM926 spends "
                "cleaning lines are in the emulator's figures, not here). PL080: request to completion "
                "(map, linked-list items, transfer, interrupt, wake-up, unmap); QEMU moves the data at no "
                "cost in virtual time, so bus time is not included",
        "figures": {v: {r["name"]: r["ns"] for r in runs[v]["results"] if r["group"] == "dma"} for v in runs}}
    boards = {default_board(): {v: board_figures(runs[v]["results"]) for v in runs}}
    boards.update(other_boards(outdir))
    summary["boards"] = {
        "what": "the same bench image on every board QEMU models (its own interrupt controller, timers "
                "and UART), both schemes, ns under -icount shift=0 (events: per second of virtual time)",
        "figures": boards}
    shell_input = os.path.join(outdir, "shell-input.json")     # tools/shell/bench-input.py
    if os.path.exists(shell_input):
        summary["targets"]["shell_input_wakeup_p99_ratio"] = json.load(open(shell_input))
    with open(os.path.join(outdir, "results.json"), "w") as f:
        json.dump(summary, f, indent=2)

    # Plot: switch cost vs number of maps.
    dat = os.path.join(outdir, "switch-vs-maps.dat")
    with open(dat, "w") as f:
        f.write("# maps yield_eager yield_defer irq_low_eager irq_low_defer\n")
        for r in rows:
            f.write("%d %s %s %s %s\n" % (r["maps"], r["eager"]["yield_both"], r["defer"]["yield_both"],
                                          r["eager"]["irq_low"], r["defer"]["irq_low"]))
    png = os.path.join(outdir, "switch-vs-maps.png")
    subprocess.run(["gnuplot", "-e",
                    "set terminal pngcairo size 800,500 noenhanced; set output '%s';"
                    "set title 'Context switch cost vs local kmaps held (QEMU -icount, 1 ns = 1 insn)';"
                    "set xlabel 'local kmaps held'; set ylabel 'ns'; set key left top;"
                    "set grid; plot '%s' u 1:2 w lp t 'yield, both hold k (eager)',"
                    " '' u 1:3 w lp t 'yield, both hold k (deferred)',"
                    " '' u 1:4 w lp t 'IRQ round trip (2 switches), low holds k (eager)',"
                    " '' u 1:5 w lp t 'IRQ round trip (2 switches), low holds k (deferred)'" % (png, dat)],
                   check=True)

    # The table.
    print("\nLokal bench, %s, %s" % (summary["date"], summary["qemu"]))
    print("time base: %s" % summary["time_base"])
    print("\nFigure 4: floor  register switch only %.1f ns; one map moved %.1f ns" % (floor, map_floor))
    print("\nFigure 1: context switch in ns (yield: per switch; IRQ trip: IRQ, switch to the woken thread, switch back), eager | deferred")
    print("  maps | yield both hold | yield one side | IRQ trip, low holds | IRQ trip, high holds | teardown | restore")
    for r in rows:
        l, z = r["eager"], r["defer"]
        fmt = lambda a, b: ("%8.1f|%-8.1f" % (a, b)) if a is not None and b is not None else "%17s" % "-"
        print("  %4d | %s | %s | %s | %s | %s | %s" % (
            r["maps"], fmt(l["yield_both"], z["yield_both"]), fmt(l["yield_one_side"], z["yield_one_side"]),
            fmt(l["irq_low"], z["irq_low"]), fmt(l["irq_high"], z["irq_high"]),
            fmt(l["teardown"], z["teardown"]), fmt(l["restore"], z["restore"])))
    print("\nFigure 2: map+unmap (ns), eager | deferred")
    for r in lin:
        if r["group"] == "map+unmap":
            dv = value(defer, "map+unmap", r["name"])
            print("  %-52s %8.1f | %8s" % (r["name"], r["ns"], "%.1f" % dv if dv is not None else "-"))
    print("\nFigure 5: streaming DMA (ns = instructions), eager | deferred")
    for name, ns in summary["dma"]["figures"]["eager"].items():
        dv = summary["dma"]["figures"]["defer"].get(name)
        print("  %-56s %8.1f | %8s" % (name, ns, "%.1f" % dv if dv is not None else "-"))
    print("\nFigure 3: wake-up latency (ns) over %d wake-ups per mode" % wakes)
    for v in runs:
        res = runs[v]["results"]
        for m in ("atomic", "local", "nomap", "dma"):
            if value(res, "wakeup", "%s p99" % m) is None:
                continue
            print("  %-6s %-7s min %8.0f  median %8.0f  p99 %8.0f  max %8.0f" % (
                v, m, value(res, "wakeup", "%s min" % m), value(res, "wakeup", "%s median" % m),
                value(res, "wakeup", "%s p99" % m), value(res, "wakeup", "%s max" % m)))
        print("  %-6s section length %.0f ns; p99 atomic/local = %.2f" % (
            v, value(res, "wakeup", "section length (local)"),
            p99[v]["atomic"] / p99[v]["local"]))
    t = summary["targets"]
    print("\nTargets")
    print("  yield, no maps: %.0f ns (target <= %d)" % (yield0, TARGET_YIELD_NS))
    if yield5 is not None:
        print("  yield, 5 equal-priority peers: %.0f ns (target <= %d)" % (yield5, TARGET_YIELD_PEERS_NS))
    if irq_to_thread is not None:
        print("  IRQ vector to woken thread: %d ns (target <= %d)" % (irq_to_thread, TARGET_IRQ_TO_THREAD_NS))
    print("  soft-IRQ round trip, no maps: %.0f ns (target <= %d)" % (irq_trip, TARGET_IRQ_TRIP_NS))
    if t["per_map_vs_floor"]["measured"]:
        print("  per restored map: %.1f ns = %.2f x floor %.1f ns (target <= %.2f x)" % (
            per_map, t["per_map_vs_floor"]["measured"], map_floor, TARGET_MAP_RATIO))
    for v, r in t["wakeup_p99_atomic_over_local"]["measured"].items():
        print("  wake-up p99 local = 1/%.2f of atomic [%s] (target 1/%d)" % (r, v, TARGET_P99_RATIO))
    fmt3 = lambda d: " | ".join("%s %s" % (v, "%.3f" % d[v] if d[v] else "-") for v in ("eager", "defer"))
    print("  yield, one side holds 16 / yield, no maps: %s (target <= %.1f for defer)"
          % (fmt3(one_side), TARGET_DEFER_ONE_SIDE))
    print("  wake-up p99, workers hold 2 maps / hold none: %s (target <= %.1f for defer)"
          % (fmt3(wake_maps), TARGET_DEFER_WAKEUP))
    d = t["defer_map_unmap_over_eager"]
    if d["measured"]:
        print("  highmem map+unmap, deferred / eager: %.1f / %.1f ns = %.3f (target <= %.2f)"
              % (hi_local_defer, hi_local, d["measured"], TARGET_DEFER_MAP_UNMAP))
    d = t["defer_map_unmap_after_deferred_over_eager_map_unmap"]
    if d["measured"]:
        print("  map+unmap flushing another thread's deferred slot [defer] / highmem map+unmap [eager]: "
              "%.1f / %.1f ns = %.3f" % (left["defer"], hi_local, d["measured"]))
    d = t["dma_wakeup_p99_ratio"]
    if d["measured"]:
        print("  wake-up p99 while the PL080 copies / while the CPU copies: %.0f / %.0f ns = %.3f "
              "(target <= %.2f; %s)" % (d["p99_ns"]["dma"], d["p99_ns"]["cpu_copy"], d["measured"],
                                        TARGET_DMA_WAKEUP, "vivt-emu's pins, exact" if d["from"] == "pins"
                                        else "the firmware's counter, %.2f ns a tick" % (d["counter_resolution_ns"] or 0)))
    for v, got in sorted(summary.get("wakeup_pins", {}).get("schemes", {}).items()):
        print("  wake-up from the pins (vivt-emu, the timer's line to the thread, exact), %s: %s" % (
            v, "; ".join("%s p99 %d max %d" % (m, s["p99"], s["max"]) for m, s in got["modes"].items()
                         if s.get("count"))))
        for m, s in got["modes"].items():
            a = s.get("above_p99")
            if a and a["count"]:
                print("    %s, %s: %d above its p99, behind %s" % (v, m, a["count"], ", ".join(
                    ["%s %d" % kv for kv in a["behind"].items()] + ["no other line %d" % a["alone"]])))
    si = t.get("shell_input_wakeup_p99_ratio")
    if si:
        print("  wake-up p99 with shell input at 115200 baud (%s bytes/s, vivt-emu's line) / without: "
              "%.0f / %.0f ns = %.3f (target <= %.2f; vivt-emu's pins, exact)"
              % (si["input_bytes_per_s"], si["p99_local_ns"]["with"],
                 si["p99_local_ns"]["without"], si["measured"], si["target"]))
    print("\nRTOS event shapes as the Thread-Metric suite counts them, instructions per event "
          "(fewer is better; eager = Linux-restore build, the measured one)")
    print("  %-21s %9s %9s %9s %9s %9s %8s  %s" % ("shape", "eager", "deferred", "ThreadX", "FreeRTOS",
                                                  "target", "vs TX", "goal"))
    for key, name, threadx, freertos in EVENT_SHAPES:
        e = t[key]
        d = e["other_schemes"]["defer"]
        f = lambda x: "%.1f" % x if x is not None else "-"
        goal = ("CPU share %.2f %%" % value(lin, "events", "basic, share of the CPU left to the thread")
                if key == "events_basic" else ("met" if e["met"] else "NOT met"))
        print("  %-21s %9s %9s %9.1f %9.1f %9s %7s  %s" % (
            name, f(e["measured"]), f(d), e["threadx"], e["freertos"], f(e["target"]),
            "%.3fx" % e["vs_threadx"] if e["vs_threadx"] else "-", goal))
    if tool_out:
        print("  tools/latency on the firmware's trace dumps: same min/median/p99/max as the firmware")
    print("\nThe same figures on every board QEMU models (ns; events per second), eager | deferred")
    names = list(boards)
    print("  %-32s %s" % ("", "  ".join("%-23s" % b for b in names)))
    for key, _, _ in BOARD_FIGURES:
        cells = []
        for b in names:
            e, d = boards[b].get("eager", {}).get(key), boards[b].get("defer", {}).get(key)
            g = lambda x: "%.1f" % x if x is not None else "-"
            cells.append("%-23s" % ("%s | %s" % (g(e), g(d))))
        print("  %-32s %s" % (key, "  ".join(cells)))
    if bd_text:
        print("\nPer-function breakdown (instructions; the yield excludes the benchmark loop)")
        print(bd_text.rstrip())
    print("\nwrote %s, %s, wakeup VCDs%s" % (os.path.join(outdir, "results.json"), png,
                                           ", wake-up CDF plots" if tool_out else ""))


if __name__ == "__main__":
    main()
