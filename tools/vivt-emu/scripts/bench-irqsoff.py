#!/usr/bin/env python3
"""make bench: the interrupts-off figures of the emulator runs bench-vivt.sh
made, into results.json.

  bench-irqsoff.py OUT_DIR NAME=STATS ...

Each STATS is the stats file (vivt-emu --stats-file) of one run (the bench
image or the demo, in one kmap scheme).  Adds target irqs_off_max_insns (the longest
thread-context IRQs-off window the kernel opened, over every run, target 200
instructions) with where it was, and preempt_off_kernel_max_insns (the longest
preemption-off window the kernel opened, target 1000), and beside it per run: the longest thread
windows the kernel and the application opened (the bench masks IRQs itself
to time a bare register switch), the longest handler window per vector and
IRQ line, the longest preempt-off windows.  Prints the same as a table.
"""
import importlib.util
import json
import os
import sys

_spec = importlib.util.spec_from_file_location(
    "irqsoff_summary", os.path.join(os.path.dirname(os.path.abspath(__file__)), "irqsoff-summary.py"))
summary = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(summary)

BOUND = summary.THREAD_BOUND
PREEMPT_BOUND = summary.PREEMPT_BOUND
HANDLER_KERNEL_BOUND = summary.HANDLER_KERNEL_BOUND
KEYS = {"irqs-off handler, kernel part": "handler_kernel", "irqs-off thread max": "thread", "irqs-off thread max, opened by the kernel": "thread_kernel",
        "irqs-off thread max, opened by an application": "thread_application",
        "preempt-off max, opened by the kernel": "preempt_off_kernel",
        "preempt-off max, opened by an application": "preempt_off_application"}


def fail(msg):
    sys.exit(f"bench-irqsoff: {msg}")


def main(argv):
    if len(argv) < 3 or any('=' not in a for a in argv[2:]):
        fail("usage: bench-irqsoff.py OUT_DIR NAME=STATS ...")
    runs = {}
    for arg in argv[2:]:
        name, stats = arg.rsplit('=', 1)
        try:
            windows, thread = summary.read_windows(stats)
        except ValueError as e:
            fail(str(e))
        if thread is None:
            fail(f"{stats}: no stats file (the run crashed?)")
        entry = {"thread_max_insns": thread}
        for kind, (insns, cycles, where) in windows.items():
            entry[KEYS.get(kind, kind.replace("irqs-off ", ""))] = {"insns": insns, "est_cycles": cycles, "where": where}
        runs[name] = entry
    def kernel(r):
        return r.get("thread_kernel", {}).get("insns", 0)

    worst = max(runs, key=lambda n: kernel(runs[n]))
    print(f"\nIRQs-off windows on vivt-emu (instructions; target: thread context, kernel-opened <= {BOUND})")
    print(f"  {'run':<24}{'thread (kernel)':>17}{'thread (app)':>14}{'handler':>9}{'preempt-off (kernel)':>22}")
    for name, r in runs.items():
        handler = max((v["insns"] for k, v in r.items() if k.startswith("handler")), default=0)
        print(f"  {name:<24}{kernel(r):>17}{r.get('thread_application', {}).get('insns', 0):>14}{handler:>9}"
              f"{r.get('preempt_off_kernel', {}).get('insns', 0):>22}")
    def pkernel(r):
        return r.get("preempt_off_kernel", {}).get("insns", 0)

    pworst = max(runs, key=lambda n: pkernel(runs[n]))
    pwhere = runs[pworst].get("preempt_off_kernel", {}).get("where", "")
    print(f"  longest kernel preemption-off window: {pkernel(runs[pworst])} instructions in {pworst}: {pwhere}")
    where = runs[worst].get("thread_kernel", {}).get("where", "")
    print(f"  longest kernel-opened thread-context window: {kernel(runs[worst])} instructions in {worst}: {where}")
    hk = max(runs, key=lambda n: runs[n].get("handler_kernel", {}).get("insns", 0))
    print(f"  longest kernel part of a handler window: {runs[hk].get('handler_kernel', {}).get('insns', 0)} "
          f"instructions in {hk} (target <= {HANDLER_KERNEL_BOUND}): {runs[hk].get('handler_kernel', {}).get('where', '')}")
    res = os.path.join(argv[1], "results.json")
    if os.path.exists(res):
        doc = json.load(open(res))
        doc.setdefault("targets", {})["irqs_off_max_insns"] = {
            "target": BOUND, "measured": kernel(runs[worst]), "run": worst, "where": where,
            "method": "vivt-emu, exact instruction count from the instruction that masks IRQs to the one "
                      "that unmasks them, windows the kernel opened in thread context after boot "
                      "(the application's own, such as the bench timing a bare switch, are listed per run)",
            "runs": runs}
        doc["targets"]["preempt_off_kernel_max_insns"] = {
            "target": PREEMPT_BOUND, "measured": pkernel(runs[pworst]), "run": pworst, "where": pwhere,
            "method": "vivt-emu, exact instruction count from the store that raises the preempt count "
                      "from zero to the one that drops it back, windows opened by kernel code (those an "
                      "application opens itself, such as kmap_atomic(), are listed per run)"}
        def hkernel(r):
            return r.get("handler_kernel", {}).get("insns", 0)

        hworst = max(runs, key=lambda n: hkernel(runs[n]))
        doc["targets"]["irqs_off_handler_kernel_max_insns"] = {
            "target": HANDLER_KERNEL_BOUND, "measured": hkernel(runs[hworst]), "run": hworst,
            "where": runs[hworst].get("handler_kernel", {}).get("where", ""),
            "method": "vivt-emu, exact instruction count of an interrupt handler's window (the vector to the "
                      "exception return or the first unmask) less the instructions of the handler's own "
                      "code in it (functions in drivers/ and the applications): the kernel's entry, "
                      "dispatch, wake-ups, the switch and its kmap work",
            "runs": {n: hkernel(r) for n, r in runs.items()}}
        with open(res, "w") as f:
            json.dump(doc, f, indent=2)


if __name__ == "__main__":
    main(sys.argv)
