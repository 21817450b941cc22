#!/usr/bin/env bash
# A board without a debugger: run target images under QEMU *without*
# semihosting and require the quiet halt. Each image (of the default
# configuration's build) must print its halt line exactly once, report no
# SWI fault, and still be parked (QEMU alive) when the time is up, instead
# of faulting back into the SWI vector again and again.
#   tests/target/check-quiet-halt.sh TAP_OUT IMAGE:STATUS...
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh
. tests/lib/images.sh
if [ $# -lt 2 ]; then
	echo "usage: tests/target/check-quiet-halt.sh TAP_OUT IMAGE:STATUS..." >&2
	exit 2
fi
tap_open "$1"; shift
TAP_WHAT="the quiet-halt check"
secs=${QUIET_HALT_SECS:-4}
mkdir -p build/check/quiet-halt
O=$(build_dir versatilepb)
for arg in "$@"; do
	name=${arg%:*} status=${arg##*:}
	elf=$O/tests/$name.elf
	log=build/check/quiet-halt/$name.log
	if [ ! -f "$elf" ]; then
		r="not ok"; why="$elf not built"
	else
		QEMU_SEMIHOSTING=0 QEMU_TIMEOUT=$secs tools/qemu-run.sh "$elf" < /dev/null > "$log" 2>&1
		qrc=$?
		halts=$(tr -d '\r' < "$log" | grep -c "^halted with status $status (no semihosting host")
		swis=$(tr -d '\r' < "$log" | grep -c "unexpected SWI")
		if [ "$qrc" -ne 124 ]; then
			r="not ok"; why="QEMU ended with status $qrc instead of staying parked"
		elif [ "$halts" -ne 1 ] || [ "$swis" -ne 0 ]; then
			r="not ok"; why="$halts halt line(s) for status $status and $swis SWI fault line(s)"
		else
			r="ok"; why="parked quietly after 'halted with status $status'"
		fi
	fi
	tap_result "$r" "quiet halt without semihosting: $name: $why (log $log)"
done
tap_close
