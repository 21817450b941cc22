#!/usr/bin/env python3
"""What the board will see: the bench figures with the memory-system work
behind each, and an ESTIMATED ARM926EJ-S cycle count.

  bench-vivt.py COSTS.json OUT_DIR LABEL=EMU_LOG [LABEL=EMU_LOG ...]

Each EMU_LOG is vivt-emu's stderr from a bench run with --stats-at-lines
matching the bench's result lines.  A line's counters cover everything
since the previous result line: the figure's timed loop plus its set-up.
They are scaled to one iteration of the figure by the loop's share of the
interval: a figure of V ns (= V instructions, one per ns) over an interval
of I instructions ran about I / V iterations.  The kmap restore figure is
timed inside the teardown loop, so the two share one row.  Wake-up latency
percentiles and ratios are not per-iteration costs; the wake-up runs are
given once, as a whole.  An RTOS event shape's figure is a rate (V events
per virtual second): one event is 10^9 / V instructions, and its row is
one event.  Each event shape's goal in results.json gets its estimated
cycles per event, per image, as est_arm926_cycles.

Writes OUT_DIR/vivt.json and OUT_DIR/vivt.txt, adds a "vivt" section to
OUT_DIR/results.json if that exists, and prints the table.
"""
import json
import os
import re
import sys

LINE = re.compile(r"^vivt-emu: stats-at-line (?P<fields>.*?) \| +(?P<group>\S+) +(?P<name>.*?) +"
                  r"(?P<value>[0-9]+\.[0-9]+) (?P<unit>ns|x|ev/s)$")
EVENTS = ["pipe", "dfills", "dwritebacks", "ifills", "cp15", "walks", "drains"]
COST_OF = {"pipe": "pipeline_cycle", "dfills": "dline_fill", "dwritebacks": "dwriteback", "ifills": "iline_fill",
           "cp15": "cp15_op", "walks": "walk", "drains": "drain"}


def fail(msg):
    print(f"bench-vivt: {msg}", file=sys.stderr)
    sys.exit(1)


def load_costs(path):
    try:
        with open(path) as f:
            doc = json.load(f)
        costs = {k: float(v["cycles"]) for k, v in doc["costs"].items()}
    except (OSError, ValueError, KeyError, TypeError) as e:
        fail(f"{path}: not a usable cost table ({e})")
    missing = {"instruction", *COST_OF.values()} - costs.keys()
    if missing:
        fail(f"{path}: no cost for {', '.join(sorted(missing))}")
    return doc, costs


def parse_log(path):
    rows = []
    try:
        with open(path, errors="replace") as f:
            lines = f.read().splitlines()
    except OSError as e:
        fail(f"{path}: {e}")
    for line in lines:
        m = LINE.match(line)
        if not m:
            continue
        counts = {}
        for kv in m.group("fields").split():
            k, _, v = kv.partition("=")
            counts[k] = int(v)
        rows.append({"group": m.group("group"), "name": m.group("name"),
                     "value": float(m.group("value")), "unit": m.group("unit"), "counts": counts})
    if not rows:
        fail(f"{path}: no 'stats-at-line' result lines (was the bench run with --stats-at-lines?)")
    return rows


def per_iteration(rows):
    """Figures with per-iteration counts; the wake-up run as one whole row."""
    out, wake = [], None
    i = 0
    while i < len(rows):
        r = rows[i]
        c, ns, name = r["counts"], r["value"], r["name"]
        nxt = rows[i + 1] if i + 1 < len(rows) else None
        if r["group"] == "switch-part" and name.startswith("kmap teardown") and nxt \
                and nxt["name"].startswith("kmap restore"):
            ns += nxt["value"]          # both timed in one loop: one row
            name = name.replace("teardown", "teardown+restore")
            i += 1
        i += 1
        if r["unit"] == "ev/s":         # an RTOS event shape: V events per virtual second
            if r["value"] <= 0:
                continue
            ns = 1e9 / r["value"]       # = instructions per event
        elif r["unit"] != "ns":
            continue
        if r["group"] == "wakeup" and not name.startswith("section length"):
            if wake is None:            # the first percentile line closes both runs
                wake = {"name": "wake-up runs, every mode (whole)", "counts": c}
            continue
        if ns <= 0 or c["insns"] <= 0:
            continue
        iters = c["insns"] / ns
        out.append({"group": r["group"], "name": name, "ns": ns, "iterations": round(iters),
                    **{k: c[k] / iters for k in EVENTS}})
    return out, wake


def estimate(row, costs):
    cyc = row["ns"] * costs["instruction"]
    return cyc + sum(row[k] * costs[COST_OF[k]] for k in EVENTS)


def table(label, rows, wake, costs, mhz):
    hdr = f"{'figure':<58} {'insns':>8} {'pipe':>6} {'D fill':>7} {'D wb':>6} {'I fill':>7} {'CP15':>7} " \
          f"{'walks':>6} {'drain':>6} {'est.cyc':>8} {'est.us':>7}"
    out = [f"vivt ({label}): per iteration; est. = ESTIMATED ARM926EJ-S cycles at {mhz:g} MHz "
           f"(tools/vivt-emu/cpu/arm926-costs.json)", hdr]
    for r in rows:
        cyc = estimate(r, costs)
        r["est_cycles"] = round(cyc, 1)
        out.append(f"{(r['group'] + ' ' + r['name'])[:58]:<58} {r['ns']:>8.1f} {r['pipe']:>6.1f} {r['dfills']:>7.2f} "
                   f"{r['dwritebacks']:>6.2f} {r['ifills']:>7.2f} {r['cp15']:>7.1f} {r['walks']:>6.2f} "
                   f"{r['drains']:>6.2f} {cyc:>8.0f} {cyc / mhz:>7.2f}")
    if wake:
        c = wake["counts"]
        out.append(f"{wake['name']:<58} {c['insns']:>8} " + " ".join(
            f"{c[k]:>{w}}" for k, w in zip(EVENTS, (6, 7, 6, 7, 7, 6, 6))) + "   (totals, not per iteration)")
    return out


def main():
    if len(sys.argv) < 4 or any("=" not in a for a in sys.argv[3:]):
        fail("usage: bench-vivt.py COSTS.json OUT_DIR LABEL=EMU_LOG [LABEL=EMU_LOG ...]")
    doc, costs = load_costs(sys.argv[1])
    outdir = sys.argv[2]
    mhz = float(doc.get("core_mhz", 200))
    result, lines = {"estimate": "ESTIMATE, not a measurement: cycle costs from tools/vivt-emu/cpu/arm926-costs.json",
                     "costs": doc["costs"], "core_mhz": mhz, "images": {}}, []
    for arg in sys.argv[3:]:
        label, _, log = arg.rpartition("=")
        rows, wake = per_iteration(parse_log(log))
        lines += table(label, rows, wake, costs, mhz) + [""]
        result["images"][label] = {"figures": rows, "wakeup_totals": wake["counts"] if wake else None}
    assumed = [k for k, v in doc["costs"].items() if v.get("kind") != "trm"]
    lines.append("vivt: the estimate charges each counted event a fixed cost; assumed, not from the TRM: "
                 + ", ".join(f"{k} {costs[k]:g}" for k in assumed) + " cycles; instruction "
                 f"{costs['instruction']:g} cycle, plus the pipeline's own cycles counted per instruction "
                 "(pipe: taken branches, load-use interlocks, LDM/STM, writes to the PC)")
    text = "\n".join(lines)
    print(text)
    with open(os.path.join(outdir, "vivt.txt"), "w") as f:
        f.write(text + "\n")
    with open(os.path.join(outdir, "vivt.json"), "w") as f:
        json.dump(result, f, indent=1)
    res = os.path.join(outdir, "results.json")
    if os.path.exists(res):
        try:
            with open(res) as f:
                doc_res = json.load(f)
        except ValueError as e:
            fail(f"{res}: not JSON ({e})")
        doc_res["vivt"] = result
        # Beside each event-shape goal: its estimated ARM926 cycles per event, per image.
        for label, img in result["images"].items():
            for r in img["figures"]:
                t = doc_res.get("targets", {}).get("events_" + r["name"].replace(" ", "_"))
                if r["group"] == "events" and t is not None:
                    t.setdefault("est_arm926_cycles", {})[label] = r["est_cycles"]
        with open(res, "w") as f:
            json.dump(doc_res, f, indent=2)


if __name__ == "__main__":
    main()
