#!/usr/bin/env bash
# make cyclic's run under QEMU -icount: the report is complete and reads
# back in lokal-latency (histogram rows adding up to the periods), every
# load part the image asks for ran (console input is not fed under QEMU),
# and the histogram plot is written.
#   tests/target/check-cyclic.sh TAP_OUT IMAGE.elf
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh
. tools/lib/board.sh
if [ $# -ne 2 ] || [ ! -f "$2" ]; then
	echo "usage: tests/target/check-cyclic.sh TAP_OUT IMAGE.elf (${2:-no image}: not found)" >&2
	exit 2
fi
tap_open "$1"
elf=$2
out=build/check/cyclic-qemu
rm -rf "$out"
tools/cyclic.sh qemu "$elf" "$out" > "$out.log" 2>&1
rc=$?
periods=$(image_config "$elf" CYCLIC_PERIODS)
mask=$(image_config "$elf" CYCLIC_LOAD)
if [ "$rc" -eq 0 ] && grep -q "^cyclic: thread .* over $periods periods" "$out.log"; then
	tap_result ok "make cyclic under QEMU -icount: $periods periods, report read back by lokal-latency cyclic"
else
	tap_result "not ok" "make cyclic under QEMU -icount: status $rc, no complete report of $periods periods" "see $out.log"
fi
# The parts the run says it started (its first line names them from CYCLIC_LOAD).
parts=$(tr -d '\r' < "$out.log" | sed -n 's/^cyclic: .*, load: //p' | head -1)
missing=""
for part in $parts; do
	if [ "$part" != none ] && [ "$part" != console ] &&
		! grep -Eq "^cyclic: load done:.* $part [1-9]" "$out.log"; then
		missing+=" $part"
	fi
done
if [ -n "$parts" ] && [ -z "$missing" ] && grep -q "^cyclic: load done:" "$out.log"; then
	tap_result ok "make cyclic: every load part of CYCLIC_LOAD=$mask ran ($(sed -n 's/^cyclic: load done: //p' "$out.log"))"
else
	tap_result "not ok" "make cyclic: load parts that did nothing:${missing:- the load line is missing}" "see $out.log"
fi
if [ -s "$out/cyclic-qemu.png" ] && [ "$(head -c 4 "$out/cyclic-qemu.png" | tail -c 3)" = PNG ]; then
	tap_result ok "make cyclic: the histogram plot is a PNG"
else
	tap_result "not ok" "make cyclic: no histogram plot at $out/cyclic-qemu.png" "see $out.log"
fi
tap_close
