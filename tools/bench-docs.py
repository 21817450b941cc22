#!/usr/bin/env python3
"""docs/bench.md's figures of the last published run, written from it.

  bench-docs.py RESULTS.json DOC.md          rewrite DOC's generated parts in place
  bench-docs.py --check RESULTS.json DOC.md  exit 1 if one of them differs

Two parts sit between marker lines: the run's printed table (the part
bench-report.py prints, from table.txt beside RESULTS.json), and the RTOS
event-shape table, from RESULTS.json's targets. Everything else in DOC is
left as it is. make bench PUBLISH=1 runs this over the run it publishes,
and the docs test runs --check, so neither part is edited by hand or
drifts from the published run.
"""
import json
import os
import sys

RUN = ("<!-- run: tools/bench-docs.py writes it from docs/bench/table.txt -->",
       "<!-- end of run -->")
EVENTS = ("<!-- events table: tools/bench-docs.py writes it from docs/bench/results.json -->",
          "<!-- end of events table -->")
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
    if len(args) != 2:
        fail("usage: bench-docs.py [--check] RESULTS.json DOC.md")
    try:
        with open(args[0]) as f:
            results = json.load(f)
        targets = results["targets"]
        with open(args[1]) as f:
            doc = f.read()
    except (OSError, ValueError, KeyError) as e:
        fail(str(e))
    parts = [(RUN, run_block(results, os.path.join(os.path.dirname(args[0]), "table.txt"))),
             (EVENTS, events_table(targets))]
    stale = []
    for markers, new in parts:
        head, old, tail = split(doc, markers, args[1])
        if old != new:
            stale.append(markers[0])
        doc = head + markers[0] + new + markers[1] + tail
    if check:
        if stale:
            print("bench-docs: %s: not the published run's: %s (run make bench PUBLISH=1, or "
                  "tools/bench-docs.py %s %s)" % (args[1], "; ".join(stale), args[0], args[1]), file=sys.stderr)
            sys.exit(1)
        return
    with open(args[1], "w") as f:
        f.write(doc)


if __name__ == "__main__":
    main()
