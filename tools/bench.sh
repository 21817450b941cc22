#!/usr/bin/env bash
# `make bench`: build the bench image in both kmap schemes (Linux's eager
# teardown and restore, KMAP_DEFER=0; the deferred flush, KMAP_DEFER=1), run
# each under QEMU with instruction-counted virtual time, and write
# build/bench/{results.json,*.png,*.vcd,*.log}.
#   tools/bench.sh [WAKES]       (WAKES: wake-ups per mode, default 10000)
set -euo pipefail
wakes=${1:-10000}
out=build/bench
mkdir -p "$out"

# name:make variable, one build each.
for mode in eager:KMAP_DEFER=0 defer:KMAP_DEFER=1; do
	name=${mode%%:*} var=${mode#*:}
	O=build/bench-$name
	echo "bench: building $var"
	make --no-print-directory O=$O "$var" BENCH_WAKES="$wakes" bench-image > "$out/build-$name.log" 2>&1 \
		|| { tail -20 "$out/build-$name.log"; exit 1; }
	echo "bench: running $var under -icount shift=0,align=off,sleep=off"
	QEMU_ICOUNT=1 QEMU_TIMEOUT=900 tools/qemu-run.sh $O/bench.elf > "$out/console-$name.log" 2>&1 \
		|| { tail -30 "$out/console-$name.log"; echo "bench: run failed"; exit 1; }
done

# The same two images on vivt-emu (devices only: without the cache model the
# instructions are the same, the run four times faster), their pins read by
# lokal-latency wakeup: each mode's wake-ups from the timer's interrupt line,
# exact, which the firmware's 24 MHz counter cannot resolve at a p99 of a few
# hundred ns (target dma_wakeup_p99_ratio). Both at once, ~100 s each.
echo "bench: wake-ups on vivt-emu's pins, both schemes"
make --no-print-directory vivt-emu > "$out/build-vivt-emu.log" 2>&1 || { tail -20 "$out/build-vivt-emu.log"; exit 1; }
pins() {
	build/vivt-emu/vivt-emu --no-model --input /dev/null --vcd "$out/wakeup-pins-$1.vcd" \
		"build/bench-$1/bench.elf" > "$out/wakeup-pins-console-$1.log" 2> "$out/wakeup-pins-emu-$1.log" \
		&& tools/latency/lokal-latency wakeup "$out/wakeup-pins-console-$1.log" --pin "$out/wakeup-pins-$1.vcd" \
			--json "$out/wakeup-pins-$1.json" > "$out/wakeup-pins-$1.txt" 2>&1
	local rc=$?
	rm -f "$out/wakeup-pins-$1.vcd"      # ~80 MB of switch edges; the JSON keeps the figures
	return $rc
}
pins eager & eager_pid=$!
pins defer & defer_pid=$!
for name in eager defer; do
	pid_var=${name}_pid
	wait "${!pid_var}" || { tail -5 "$out/wakeup-pins-emu-$name.log" "$out/wakeup-pins-$name.txt"; echo "bench: pins run $name failed"; exit 1; }
	cat "$out/wakeup-pins-$name.txt"
done

# The same bench image on every other board QEMU models (board.mk's
# BOARD_QEMU), both schemes: the figures side by side in results.json's
# "boards" and the table (its interrupt controller, timers and UART are
# the board's own; the kernel is the same).
. "$(dirname "$0")/lib/board.sh"
: > "$out/boards.txt"
for board in $(qemu_boards); do
	[ "$board" = "$(default_board)" ] && continue
	for mode in eager:KMAP_DEFER=0 defer:KMAP_DEFER=1; do
		name=${mode%%:*} var=${mode#*:}
		O=build/bench-$board-$name
		echo "bench: $board, building and running $var"
		make --no-print-directory BOARD="$board" O=$O "$var" BENCH_WAKES="$wakes" bench-image \
			> "$out/build-$board-$name.log" 2>&1 || { tail -20 "$out/build-$board-$name.log"; exit 1; }
		QEMU_ICOUNT=1 QEMU_TIMEOUT=900 tools/qemu-run.sh $O/bench.elf > "$out/console-$board-$name.log" 2>&1 \
			|| { tail -30 "$out/console-$board-$name.log"; echo "bench: $board run failed"; exit 1; }
		echo "$board $name console-$board-$name.log" >> "$out/boards.txt"
	done
done

# Where the instructions of one yield and one IRQ-to-thread path go,
# single-stepped with gdb-multiarch over the default (deferred) bench image.
echo "bench: per-function breakdown (gdb-multiarch single-step)"
tools/bench-breakdown.sh build/bench-defer/bench.elf > "$out/breakdown.txt" \
	|| { cat "$out/breakdown.txt"; echo "bench: breakdown failed"; exit 1; }

# Wake-up latency with the console shell receiving input at 115200 baud
# and without (shell image, default build: the deferred scheme), on
# vivt-emu: the input at the line's rate in emulated time, the figures
# from the pins, the same from run to run whatever the host does.
echo "bench: shell image on vivt-emu, bench wakeup with and without console input"
make --no-print-directory O=build/bench-defer KMAP_DEFER=1 BENCH_WAKES="$wakes" shell-image > "$out/build-shell.log" 2>&1 \
	|| { tail -20 "$out/build-shell.log"; exit 1; }
python3 tools/shell/bench-input.py build/bench-defer/shell.elf "$wakes" "$out/shell-input.json"

# make cyclic under the full load, both schemes (tools/bench-cyclic.sh: ~10 minutes).
tools/bench-cyclic.sh "$out"

python3 tools/bench-report.py "$out" "$wakes" | tee "$out/table.txt"
python3 tools/bench-cyclic.py "$out" | tee -a "$out/table.txt"

# The bench image on the ARM926 cache/TLB model: each figure's line fills,
# write-backs, CP15 operations, walks and an estimated cycle count.
tools/vivt-emu/scripts/bench-vivt.sh "$out" | tee -a "$out/table.txt"

# make bench PUBLISH=1: keep this run's table, JSON and plots in docs/bench/
# for docs/bench.md, and write the generated tables of docs/bench.md and README.md from them.
if [ "${PUBLISH:-0}" = 1 ]; then
	mkdir -p docs/bench
	cp "$out/table.txt" docs/bench/table.txt
	cp "$out/results.json" "$out"/*.png docs/bench/
	python3 tools/bench-docs.py docs/bench/results.json docs/bench.md README.md
	echo "bench: published to docs/bench/"
fi
