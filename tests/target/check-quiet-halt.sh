#!/usr/bin/env bash
# A board without a debugger: run target images under QEMU *without*
# semihosting and require the quiet halt. Each image
# must print its halt line exactly once, report no SWI fault, and still be
# parked (QEMU alive) when the time is up, instead of faulting back into
# the SWI vector again and again.
#   tests/target/check-quiet-halt.sh TAP_OUT IMAGE.elf:STATUS...
set -uo pipefail
if [ $# -lt 2 ]; then
	echo "usage: tests/target/check-quiet-halt.sh TAP_OUT IMAGE.elf:STATUS..." >&2
	exit 2
fi
tap=$1; shift
secs=${QUIET_HALT_SECS:-4}
mkdir -p build/check/quiet-halt
rc=0
for arg in "$@"; do
	elf=${arg%:*} status=${arg##*:}
	name=$(basename "$elf" .elf)
	log=build/check/quiet-halt/$name.log
	if [ ! -f "$elf" ]; then
		r="not ok"; why="$elf not built"
	else
		timeout -k 2 "$secs" qemu-system-arm -M versatilepb -cpu arm926 -m 128M \
			-nographic -monitor none -serial stdio \
			-audiodev none,id=snd0 -global pl041.audiodev=snd0 \
			-kernel "$elf" < /dev/null > "$log" 2>&1
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
	[ "$r" = ok ] || rc=1
	echo "$r 1 - quiet halt without semihosting: $name: $why (log $log)" | tee -a "$tap"
done
exit $rc
