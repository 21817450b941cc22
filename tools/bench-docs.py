#!/usr/bin/env python3
"""The RTOS event-shape table of docs/bench.md, written from a results.json.

  bench-docs.py RESULTS.json DOC.md          rewrite DOC's table in place
  bench-docs.py --check RESULTS.json DOC.md  exit 1 if DOC's table differs

The table sits between the two marker lines below; everything else in DOC
is left as it is. make bench PUBLISH=1 runs this over the run it
publishes, and the docs test runs --check, so the table is always the last
published run's and never edited by hand.
"""
import json
import sys

BEGIN = "<!-- events table: tools/bench-docs.py writes it from docs/bench/results.json -->"
END = "<!-- end of events table -->"
SHAPES = [("events_basic", "basic"), ("events_cooperative", "cooperative"),
          ("events_preemptive", "preemptive"), ("events_interrupt", "interrupt"),
          ("events_interrupt_preemption", "interrupt preemption"),
          ("events_message", "message (16 bytes)"), ("events_synchronization", "synchronization"),
          ("events_memory", "memory (128-byte blocks)")]
EAGER = "KMAP_DEFER=0"      # bench-vivt.sh's label of the measured (Linux-restore) build


def fail(msg):
    print("bench-docs: %s" % msg, file=sys.stderr)
    sys.exit(2)


def table(targets):
    rows = ["| shape (`results.json` key) | ThreadX | FreeRTOS | est. ARM926 cycles | goal | Lokal "
            "| Lokal vs ThreadX |",
            "|---|---:|---:|---:|---:|---:|---|"]
    for n, (key, name) in enumerate(SHAPES, 1):
        t = targets.get(key)
        if t is None:
            fail("results.json has no target %s" % key)
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
    return "\n".join(rows)


def main():
    args = sys.argv[1:]
    check = bool(args) and args[0] == "--check"
    if check:
        args = args[1:]
    if len(args) != 2:
        fail("usage: bench-docs.py [--check] RESULTS.json DOC.md")
    try:
        with open(args[0]) as f:
            targets = json.load(f)["targets"]
        with open(args[1]) as f:
            doc = f.read()
    except (OSError, ValueError, KeyError) as e:
        fail(str(e))
    if doc.count(BEGIN) != 1 or doc.count(END) != 1 or doc.index(BEGIN) > doc.index(END):
        fail("%s: the table's two marker lines are not there once each, in order" % args[1])
    head, rest = doc.split(BEGIN)
    old, tail = rest.split(END)
    new = "\n" + table(targets) + "\n"
    if check:
        if old != new:
            print("bench-docs: %s: the events table is not %s's (run make bench PUBLISH=1, "
                  "or tools/bench-docs.py %s %s)" % (args[1], args[0], args[0], args[1]), file=sys.stderr)
            sys.exit(1)
        return
    with open(args[1], "w") as f:
        f.write(head + BEGIN + new + END + tail)


if __name__ == "__main__":
    main()
