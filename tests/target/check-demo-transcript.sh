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
# Every line shown must be a line of the output (tests/lib/transcript_match.py),
# counts a tick places within 2 %: switches, preemptions, maps restored,
# times mapped, a thread's row.
verdict=$(python3 - "$log" <<'PY'
import re, sys
sys.path.insert(0, "tests/lib")
from transcript_match import first_missing, shown_lines
out = open(sys.argv[1]).read().splitlines()
readme = open("README.md").read()
shown = shown_lines(readme[readme.index("## What you see"):].split("```\n")[1])
loose = re.compile(r"context switches|preemptions|times|^  \w+ +(ready|running|blocked)")
missing = first_missing(shown, out, loose)
if missing is not None:
    print("not|'%s' is not what the demo prints" % missing)
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
