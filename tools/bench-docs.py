#!/usr/bin/env python3
"""The docs' figures of the last published run, written from it.

  bench-docs.py RESULTS.json DOC.md...          rewrite the docs' generated parts in place
  bench-docs.py --check RESULTS.json DOC.md...  exit 1 if one of them differs

Three parts sit between marker lines, each in one of the docs given
(docs/bench.md, README.md): the run's printed table (the part
bench-report.py prints, from table.txt beside RESULTS.json), the RTOS
event-shape table, and the worst-case latency table, from RESULTS.json's
targets. Everything else is left as it is. make bench PUBLISH=1 runs this
over the run it publishes, and the docs test runs --check, so no part is
edited by hand or drifts from the published run.
"""
import json
import os
import sys

RUN = ("<!-- run: tools/bench-docs.py writes it from docs/bench/table.txt -->",
       "<!-- end of run -->")
EVENTS = ("<!-- events table: tools/bench-docs.py writes it from docs/bench/results.json -->",
          "<!-- end of events table -->")
LATENCY = ("<!-- latency table: tools/bench-docs.py writes it from docs/bench/results.json -->",
           "<!-- end of latency table -->")
REPORT_END = "wrote build/bench/results.json"       # bench-report.py's last line; bench-vivt's part follows
EAGER = "KMAP_DEFER=0"      # bench-vivt.sh's label of the measured (Linux-restore) build


def fail(msg):
    print("bench-docs: %s" % msg, file=sys.stderr)
    sys.exit(2)


def events_table(targets):
    rows = ["| shape (`results.json` key) | ThreadX | FreeRTOS | est. ARM926 cycles | goal | Lokal "
            "| Lokal vs ThreadX |",
            "|---|---:|---:|---:|---:|---:|---|"]
    # The shapes as bench-report.py wrote them (its EVENT_SHAPES, in order).
    shapes = [k for k in targets if k.startswith("events_")]
    if not shapes:
        fail("results.json has no events_* target")
    for n, key in enumerate(shapes, 1):
        t, name = targets[key], key[len("events_"):].replace("_", " ")
        cyc = (t.get("est_arm926_cycles") or {}).get(EAGER)
        cyc = "%.0f" % cyc if cyc is not None else "-"
        if t.get("target") is None:
            goal, got, verdict = "no speed goal", "%.1f" % t["measured"], ""
        else:
            goal, got = "≤ %.1f" % t["target"], "**%.1f**" % t["measured"]
            verdict = " met" if t.get("met") else " **not met**"
        vs = "%.3fx" % t["vs_threadx"] if t.get("vs_threadx") else "-"
        rows.append("| %d %s (`%s`) | %.1f | %.1f | %s | %s | %s | %s%s |" % (
            n, name, key, t["threadx"], t["freertos"], cyc, goal, got, vs, verdict))
    return "\n" + "\n".join(rows) + "\n"


# The worst-case figures, as the targets name them.
LATENCY_ROWS = (
    ("cyclic_thread_max_insns", "timer expiry to the highest-priority thread, under the full load"),
    ("cyclic_handler_max_insns", "timer expiry to its handler, under the full load"),
    ("irqs_off_handler_kernel_max_insns", "the kernel's part of an interrupt handler's window"),
    ("irqs_off_max_insns", "interrupts off in thread context, opened by the kernel"),
    ("preempt_off_kernel_max_insns", "preemption off, opened by the kernel"),
    ("dma_wakeup_p99_ratio", "wake-up p99 while the PL080 copies / while the CPU copies"),
)


def number(v):
    return "%d" % v if isinstance(v, int) or float(v).is_integer() else ("%.3f" % v).rstrip("0")


def where(t, key):
    """Which runs a figure comes from: the cyclic ones per run, the ratio
    its two p99s and their source, the others their worst run."""
    if key.startswith("cyclic_"):
        return ", ".join("%s %d" % (n, r["max"]) for n, r in t["runs"].items())
    if "p99_ns" in t:
        return "%s: %s / %s ns" % ("vivt-emu's pins, deferred" if t.get("from") == "pins" else
                                   "the firmware's counter, deferred",
                                   number(t["p99_ns"]["dma"]), number(t["p99_ns"]["cpu_copy"]))
    return t.get("run", "")


def latency_table(results):
    targets = results["targets"]
    rows = ["| worst case (`results.json` key) | goal | measured | where |", "|---|---:|---:|---|"]
    for key, what in LATENCY_ROWS:
        if key not in targets:
            fail("results.json has no %s target" % key)
        t = targets[key]
        met = t["measured"] <= t["target"]
        rows.append("| %s (`%s`) | ≤ %s | **%s**%s | %s |" % (
            what, key, number(t["target"]), number(t["measured"]), "" if met else " (**not met**)",
            where(t, key)))
    parts = results.get("cyclic_parts", {}).get("parts")
    if not parts:
        fail("results.json has no cyclic_parts")
    rows += ["", "| load part alone (emulator, pins) | timer to handler, max | timer to thread, max |",
             "|---|---:|---:|"]
    for name, p in parts.items():
        rows.append("| `%s` | %d | %d |" % (name, p["handler_max"], p["thread_max"]))
    return "\n" + "\n".join(rows) + "\n"


def run_block(results, table_path):
    try:
        with open(table_path) as f:
            lines = f.read().splitlines()
    except OSError as e:
        fail(str(e))
    end = next((i for i, l in enumerate(lines) if l.startswith(REPORT_END)), None)
    if end is None:
        fail("%s: no line starting %r (not a make bench table?)" % (table_path, REPORT_END))
    return ("\nLatest run (%s, `make bench PUBLISH=1`; [docs/bench/](bench/); the\n"
            "emulator's per-figure cache events follow it in `docs/bench/table.txt`):\n\n```\n%s\n```\n"
            % (results["date"], "\n".join(lines[:end + 1])))


def split(doc, markers, path):
    begin, end = markers
    if doc.count(begin) != 1 or doc.count(end) != 1 or doc.index(begin) > doc.index(end):
        fail("%s: the marker lines %r and %r are not there once each, in order" % (path, begin, end))
    head, rest = doc.split(begin)
    old, tail = rest.split(end)
    return head, old, tail


def main():
    args = sys.argv[1:]
    check = bool(args) and args[0] == "--check"
    if check:
        args = args[1:]
    if len(args) < 2:
        fail("usage: bench-docs.py [--check] RESULTS.json DOC.md...")
    try:
        with open(args[0]) as f:
            results = json.load(f)
        targets = results["targets"]
        docs = {}
        for path in args[1:]:
            with open(path) as f:
                docs[path] = f.read()
    except (OSError, ValueError, KeyError) as e:
        fail(str(e))
    parts = [(RUN, lambda: run_block(results, os.path.join(os.path.dirname(args[0]), "table.txt"))),
             (EVENTS, lambda: events_table(targets)), (LATENCY, lambda: latency_table(results))]
    stale = []
    for markers, make in parts:
        where = [p for p, d in docs.items() if markers[0] in d]
        if len(where) != 1:
            fail("the marker line %r is in %d of %s, not in one" % (markers[0], len(where), ", ".join(docs)))
        path = where[0]
        head, old, tail = split(docs[path], markers, path)
        new = make()
        if old != new:
            stale.append("%s: %s" % (path, markers[0]))
        docs[path] = head + markers[0] + new + markers[1] + tail
    if check:
        if stale:
            print("bench-docs: not the published run's: %s (run make bench PUBLISH=1, or "
                  "tools/bench-docs.py %s)" % ("; ".join(stale), " ".join(args)), file=sys.stderr)
            sys.exit(1)
        return
    for path, doc in docs.items():
        with open(path, "w") as f:
            f.write(doc)


if __name__ == "__main__":
    main()
