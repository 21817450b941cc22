#!/usr/bin/env bash
# make cyclic / make cyclic-vivt: run the cyclic image and show its figures.
#   tools/cyclic.sh qemu|vivt IMAGE.elf OUTDIR
# qemu: under QEMU -icount shift=0 (one instruction is one ns, runs repeat
#       exactly); console input is not fed (QEMU would deliver it at the
#       host's pace, and the figures would depend on the host).
# vivt: on vivt-emu with its cache oracle, console bytes sent as a host
#       sends them, at the UART's 115200 baud whether the driver is ready
#       or not (--input-line), and a capture of the pins (the wake marker
#       and the one-shot timer's line): lokal-latency reads the same
#       histogram from it and says whether the firmware's figures and the
#       pins' agree.
# Writes OUTDIR/cyclic-MODE.log, .json and .png (the histogram, log-scale);
# vivt also .stats (the emulator's IRQs-off and preemption-off windows).
set -euo pipefail
. "$(dirname "$0")/lib/board.sh"
cd "$LOKAL_ROOT"
if [ $# -ne 3 ] || [[ $1 != qemu && $1 != vivt ]]; then
	echo "usage: tools/cyclic.sh qemu|vivt IMAGE.elf OUTDIR" >&2
	exit 2
fi
mode=$1 elf=$2 out=$3
[ -f "$elf" ] || { echo "cyclic: $elf: no such image (build it first)" >&2; exit 2; }
mkdir -p "$out"
log=$out/cyclic-$mode.log
pin=()
if [ "$mode" = qemu ]; then
	QEMU_ICOUNT=1 QEMU_TIMEOUT=${QEMU_TIMEOUT:-3600} tools/qemu-run.sh "$elf" < /dev/null | tee "$log"
else
	board=$(image_config "$elf" BOARD)
	ram=$(image_config "$elf" RAM_MB)
	# Text for the console part, what a host would send; none when the
	# image's load leaves that part out (its bit is LOAD_CONSOLE's place in
	# cyclic.h's enum), so a part measured alone has no console interrupts.
	console_bit=$(sed -n 's/^[[:space:]]*LOAD_\([A-Z]*\),.*/\1/p' firmware/apps/cyclic/cyclic.h | grep -nx CONSOLE | cut -d: -f1)
	[ -n "$console_bit" ] || { echo "cyclic: no LOAD_CONSOLE in firmware/apps/cyclic/cyclic.h" >&2; exit 2; }
	if [ $(( $(image_config "$elf" CYCLIC_LOAD) >> (console_bit - 1) & 1 )) -ne 0 ]; then
		awk 'BEGIN { for (i = 0; i < 4096; i++) printf "line %05d: the quick brown fox jumps over the lazy dog\n", i }' \
			> "$out/console-input.txt"
	else
		: > "$out/console-input.txt"
	fi
	build/vivt-emu/vivt-emu --machine "$board" --ram "$ram" --vcd "$out/cyclic.vcd" \
		--input "$out/console-input.txt" --input-line --stats-file "$out/cyclic-vivt.stats" "$elf" | tee "$log"
	pin=(--pin "$out/cyclic.vcd")
fi
tools/latency/lokal-latency cyclic "$log" "${pin[@]}" --json "$out/cyclic-$mode.json" \
	--plot "$out/cyclic-$mode.png"
echo "cyclic: histogram plot $out/cyclic-$mode.png, figures $out/cyclic-$mode.json"
