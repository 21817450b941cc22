#!/usr/bin/env bash
# README's "What you see" transcript is the demo's output, not a memory of
# it: every line it shows (all but "...") must be a line the demo prints
# under QEMU_ICOUNT=1 make run, where time is instruction count and every
# figure repeats exactly.
#   tests/target/check-demo-transcript.sh TAP_OUT IMAGE.elf
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh
tap_open "$1"
elf=$2
log=build/check/demo-transcript.log
mkdir -p build/check
BOARD=versatilepb RAM_MB=128 QEMU_TIMEOUT=300 QEMU_ICOUNT=1 tools/qemu-run.sh "$elf" < /dev/null 2>&1 |
	tr -d '\r' | sed 's/[[:space:]]*$//' > "$log"
# Each shown line must be a line of the output; in the lines whose counts
# depend on where the tick lands (switches, preemptions, maps restored,
# times mapped, a thread's row), which QEMU can move by a few instructions
# on a loaded host, a number may differ by 2 %: enough for a figure left
# over from an older build to fail.
verdict=$(python3 - "$log" <<'PY'
import re, sys
out = open(sys.argv[1]).read().splitlines()
readme = open("README.md").read()
block = readme[readme.index("## What you see"):].split("```\n")[1]
shown = [l.rstrip() for l in block.splitlines() if l.strip() and l.strip() != "..."]
loose = re.compile(r"context switches|preemptions|times|^  \w+ +(ready|running|blocked)")
def same(a, b):
    if a == b:
        return True
    if not loose.search(a) or re.sub(r"\d+", "#", a) != re.sub(r"\d+", "#", b):
        return False
    return all(abs(int(x) - int(y)) <= max(1, int(y) // 50)
               for x, y in zip(re.findall(r"\d+", a), re.findall(r"\d+", b)))
for line in shown:
    if not any(same(line, o) for o in out):
        print("not|'%s' is not what the demo prints" % line)
        break
else:
    print("ok|%d" % len(shown) if len(shown) > 5 else "not|only %d lines read" % len(shown))
PY
)
if [ "${verdict%%|*}" = ok ]; then
	tap_result ok "README's What you see: its ${verdict#*|} lines are the demo's own under QEMU_ICOUNT=1 make run"
else
	tap_result "not ok" "README's What you see: ${verdict#*|}" "see $log"
fi
tap_close
