#!/usr/bin/env python3
"""make bench: the cyclic runs bench-cyclic.sh made, into results.json.

  bench-cyclic.py OUT_DIR

Reads OUT_DIR/cyclic.json; adds targets cyclic_thread_max_insns (timer to
the highest-priority thread, target 1000) and cyclic_handler_max_insns
(timer to its handler, target 400): the longest over both kmap schemes,
QEMU -icount (the firmware's figures, whole counter ticks) and vivt-emu
(the pins', exact instructions); and "cyclic_parts", each load part alone.
Copies the histogram plots to OUT_DIR/cyclic-*.png and prints a table.
"""
import json
import os
import shutil
import sys

TARGETS = {"thread": ("cyclic_thread_max_insns", 1000), "handler": ("cyclic_handler_max_insns", 400)}
SCHEMES = {"eager": "KMAP_DEFER=0, Linux's eager scheme", "defer": "KMAP_DEFER=1, the deferred flush"}


def figures(run):
    """handler/thread summaries of one run: the pins' where there are pins."""
    return run.get("pin") or run["firmware"]


def periods(run):
    return figures(run)["thread"]["count"]


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: bench-cyclic.py OUT_DIR")
    out = argv[1]
    runs = json.load(open(os.path.join(out, "cyclic.json")))
    res_path = os.path.join(out, "results.json")
    doc = json.load(open(res_path)) if os.path.exists(res_path) else {}
    targets = doc.setdefault("targets", {})
    full = {n: r for n, r in runs.items() if not n.startswith("part-")}
    for sig, (key, bound) in TARGETS.items():
        worst = max(full, key=lambda n: figures(full[n])[sig]["max"])
        m = figures(full[worst])[sig]["max"]
        targets[key] = {
            "target": bound, "measured": m, "met": m <= bound, "run": worst,
            "unit": "instructions from the timer's expiry (virtual ns under -icount shift=0; emulated "
                    "instructions on vivt-emu)",
            "what": "make cyclic under its full load (local, pkmap, get, dma, console on vivt-emu, "
                    "services), the longest %s delay over every run: QEMU -icount (the firmware's own "
                    "figure, in whole ticks of the 24 MHz counter) and vivt-emu (the pins: the timer's "
                    "interrupt line to the wake marker's %s, exact)"
                    % ("timer-to-thread" if sig == "thread" else "timer-to-handler",
                       "fall" if sig == "thread" else "rise"),
            "runs": {n: {"periods": periods(r), "max": figures(r)[sig]["max"],
                         "avg": figures(r)[sig]["avg"], "from": "pins" if "pin" in r else "firmware",
                         "firmware_max": r["firmware"][sig]["max"], "variables": r["variables"]}
                     for n, r in full.items()}}
    doc["cyclic_parts"] = {
        "what": "each load part alone on vivt-emu (KMAP_DEFER=1), the pins' figures in instructions; "
                "'none' is no load at all",
        "parts": {n[5:]: {"handler_max": figures(r)["handler"]["max"],
                          "thread_max": figures(r)["thread"]["max"], "periods": periods(r)}
                  for n, r in runs.items() if n.startswith("part-")}}
    with open(res_path, "w") as f:
        json.dump(doc, f, indent=2)
    for n, r in full.items():
        src = os.path.join(out, "cyclic", n, "cyclic-%s.png" % r["how"])
        if os.path.exists(src):
            shutil.copy(src, os.path.join(out, "cyclic-%s.png" % n))

    print("\nWorst-case latency (make cyclic, full load): instructions from the timer's expiry")
    print("  %-14s %9s %12s %12s %10s %10s" % ("run", "periods", "handler max", "thread max",
                                                 "handler avg", "thread avg"))
    for n, r in full.items():
        f = figures(r)
        print("  %-14s %9d %12d %12d %10d %10d%s" % (n, periods(r), f["handler"]["max"],
                                                    f["thread"]["max"], f["handler"]["avg"],
                                                    f["thread"]["avg"],
                                                    "  (pins)" if "pin" in r else ""))
    for sig, (key, bound) in TARGETS.items():
        t = targets[key]
        print("  %s: %d (target <= %d, %s) in %s" % (key, t["measured"], bound,
                                                    "met" if t["met"] else "NOT MET", t["run"]))
    print("\nEach load part alone (vivt-emu, KMAP_DEFER=1, pins): handler max / thread max")
    for part, p in doc["cyclic_parts"]["parts"].items():
        print("  %-10s %6d / %6d   (%d periods)" % (part, p["handler_max"], p["thread_max"], p["periods"]))


if __name__ == "__main__":
    main(sys.argv)
