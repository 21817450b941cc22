#!/usr/bin/env python3
"""The demo's whole cost in Linux's kmap scheme and in KMAP_DEFER's.

  bench-demo.py OUT_DIR LINUX_STATS DEFER_STATS

Each STATS is the stats file (vivt-emu --stats-file) of one run of the demo
image with the memory-system model: the instructions executed and the
pipeline's own cycles and the memory system's counters (D line fills,
write-backs, CP15 operations, walks, drains). Prints both side by side with the ratio, an ESTIMATED
ARM926EJ-S cycle count from tools/vivt-emu/cpu/arm926-costs.json, and adds
"demo_vivt" plus the target entry defer_demo_instructions_over_linux to
OUT_DIR/results.json when it exists.
"""
import importlib.util
import json
import os
import sys

# The cost table and its reading are bench-vivt.py's: one estimate for both.
_spec = importlib.util.spec_from_file_location(
    "bench_vivt", os.path.join(os.path.dirname(os.path.abspath(__file__)), "bench-vivt.py"))
bench_vivt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench_vivt)
# The stats file's reader is the interrupts-off summary's.
_spec = importlib.util.spec_from_file_location(
    "irqsoff_summary", os.path.join(os.path.dirname(os.path.abspath(__file__)), "irqsoff-summary.py"))
summary = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(summary)

# The stats file's keys this reads.
COUNTERS = ["insns", "pipe", "dfills", "dwritebacks", "cp15", "walks", "drains", "ifills", "reports"]


def fail(msg):
    sys.exit(f"bench-demo: {msg}")


def parse(path):
    stats = summary.read_stats(path)
    if not stats:
        fail(f"{path}: no stats file (did the demo run end?)")
    got = {}
    for key in COUNTERS:
        if not stats.get(key, "").isdigit():
            fail(f"{path}: no '{key}' counter (was the demo run with the memory-system model?)")
        got[key] = int(stats[key])
    if got["reports"]:
        fail(f"{path}: the model reported {got['reports']} coherence error(s)")
    return got


def main():
    if len(sys.argv) != 4:
        fail("usage: bench-demo.py OUT_DIR LINUX_STATS DEFER_STATS")
    outdir = sys.argv[1]
    runs = {"linux": parse(sys.argv[2]), "defer": parse(sys.argv[3])}
    _, costs = bench_vivt.load_costs(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                  "..", "cpu", "arm926-costs.json"))
    for r in runs.values():
        r["est_cycles"] = round(r["insns"] * costs["instruction"]
                                + sum(r[k] * costs[c] for k, c in bench_vivt.COST_OF.items()))
    keys = ["insns", "pipe", "dfills", "dwritebacks", "ifills", "cp15", "walks", "drains", "est_cycles"]
    print("\nThe demo on vivt-emu, whole run (est_cycles: ESTIMATE from arm926-costs.json)")
    print(f"  {'':<12}" + "".join(f"{k:>14}" for k in keys))
    for name, r in runs.items():
        print(f"  {name:<12}" + "".join(f"{r[k]:>14}" for k in keys))
    ratio = {k: runs["defer"][k] / runs["linux"][k] for k in keys if runs["linux"][k]}
    print(f"  {'defer/linux':<12}" + "".join(f"{ratio.get(k, 0):>14.3f}" for k in keys))
    res = os.path.join(outdir, "results.json")
    if os.path.exists(res):
        doc = json.load(open(res))
        doc["demo_vivt"] = {"runs": runs, "defer_over_linux": ratio}
        doc.setdefault("targets", {})["defer_demo_instructions_over_linux"] = {
            "target": None, "measured": round(ratio["insns"], 4),
            "method": "vivt-emu instruction count of the whole demo, KMAP_DEFER=1 / KMAP_DEFER=0"}
        with open(res, "w") as f:
            json.dump(doc, f, indent=2)


if __name__ == "__main__":
    main()
