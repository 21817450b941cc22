#!/usr/bin/env bash
# `make bench`: build the bench image twice (kmap restore as Linux does it,
# and Lokal's lazy restore), run both under QEMU with instruction-counted
# virtual time, and write build/bench/{results.json,*.png,*.vcd,*.log}.
#   tools/bench.sh [WAKES]       (WAKES: wake-ups per mode, default 10000)
set -euo pipefail
wakes=${1:-10000}
out=build/bench
mkdir -p "$out"

for lazy in 0 1; do
	O=build/bench-lazy$lazy
	echo "bench: building KMAP_LAZY=$lazy"
	make --no-print-directory O=$O KMAP_LAZY=$lazy BENCH_WAKES="$wakes" bench-image > "$out/build-lazy$lazy.log" 2>&1 \
		|| { tail -20 "$out/build-lazy$lazy.log"; exit 1; }
	echo "bench: running KMAP_LAZY=$lazy under -icount shift=0,align=off,sleep=off"
	QEMU_ICOUNT=1 QEMU_TIMEOUT=900 tools/qemu-run.sh $O/bench.elf > "$out/console-lazy$lazy.log" 2>&1 \
		|| { tail -30 "$out/console-lazy$lazy.log"; echo "bench: run failed"; exit 1; }
done

# Where the instructions of one yield and one IRQ-to-thread path go,
# single-stepped with gdb-multiarch over the Linux-restore bench image.
echo "bench: per-function breakdown (gdb-multiarch single-step)"
tools/bench-breakdown.sh build/bench-lazy0/bench.elf > "$out/breakdown.txt" \
	|| { cat "$out/breakdown.txt"; echo "bench: breakdown failed"; exit 1; }

# Wake-up latency with the console shell receiving input at 115200 baud
# and without (shell image, Linux restore build).
echo "bench: shell image, bench wakeup with and without console input"
make --no-print-directory O=build/bench-lazy0 KMAP_LAZY=0 BENCH_WAKES="$wakes" shell-image > "$out/build-shell.log" 2>&1 \
	|| { tail -20 "$out/build-shell.log"; exit 1; }
python3 tools/shell/bench-input.py build/bench-lazy0/shell.elf "$wakes" "$out/shell-input.json"

python3 tools/bench-report.py "$out" "$wakes" | tee "$out/table.txt"

# The bench image on the ARM926 cache/TLB model: each figure's line fills,
# write-backs, CP15 operations, walks and an estimated cycle count.
tools/vivt-emu/bench-vivt.sh "$out" | tee -a "$out/table.txt"

# make bench PUBLISH=1: keep this run's table, JSON and plots in docs/bench/
# for the README.
if [ "${PUBLISH:-0}" = 1 ]; then
	mkdir -p docs/bench
	cp "$out/table.txt" docs/bench/table.txt
	cp "$out/results.json" "$out"/*.png docs/bench/
	echo "bench: published to docs/bench/"
fi
