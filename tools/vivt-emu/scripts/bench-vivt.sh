#!/usr/bin/env bash
# make bench, the emulator part ("what the board will see"): the bench image
# (both kmap schemes: eager, deferred) and the demo (both schemes) on vivt-emu with the cache/TLB model; each bench
# figure gets the line fills, write-backs, CP15 operations, table walks and
# drains behind one iteration, and an ESTIMATED ARM926EJ-S cycle count from
# tools/vivt-emu/cpu/arm926-costs.json; the longest IRQs-off windows of each run
# (bench-irqsoff.py: target irqs_off_max_insns).  Writes OUT/vivt.{txt,json} and a "vivt"
# section in OUT/results.json when that exists.
#   tools/vivt-emu/scripts/bench-vivt.sh [OUT]        (default build/bench)
# VIVT_BENCH_WAKES (default 500) sets the wake-up count of these builds: the
# per-iteration figures do not depend on it, the run time does (about 18 s
# of CPU per image at 500; the 10000 of make bench would take 85 s each).
set -euo pipefail
cd "$(dirname "$0")/../../.."
out=${1:-build/bench}
wakes=${VIVT_BENCH_WAKES:-500}
emu=build/vivt-emu/vivt-emu
mkdir -p "$out"
make --no-print-directory vivt-emu > "$out/vivt-build.log" 2>&1 || { tail -20 "$out/vivt-build.log"; exit 1; }
args=()
irqs=()
for var in KMAP_DEFER=0 KMAP_DEFER=1; do
	name=$(echo "$var" | tr 'A-Z=' 'a-z-')
	O=build/bench-vivt/$name
	make --no-print-directory O=$O "$var" BENCH_WAKES="$wakes" bench-image >> "$out/vivt-build.log" 2>&1 \
		|| { tail -20 "$out/vivt-build.log"; exit 1; }
	echo "bench: $var on vivt-emu (BENCH_WAKES=$wakes)"
	# Result lines: two spaces, the group, the name, a value in ns or x.
	"$emu" --input /dev/null --stats --stats-file "$out/vivt-emu-$name.stats" \
		--stats-at-lines '^  [a-z+-]+ +[^ ].* (ns|x|ev/s)$' $O/bench.elf \
		> "$out/vivt-console-$name.log" 2> "$out/vivt-emu-$name.log" \
		|| { tail -5 "$out/vivt-emu-$name.log"; echo "bench: vivt-emu run failed"; exit 1; }
	tail -n 3 "$out/vivt-emu-$name.log" | grep ' instructions in ' || true
	args+=("$var=$out/vivt-emu-$name.log")
	irqs+=("bench $var=$out/vivt-emu-$name.stats")
done
# The bench image on the other boards the emulator models, both schemes: their
# interrupts-off and preemption-off windows join the targets' runs (the
# same kernel over each board's own interrupt controller, timers and UART).
. tools/lib/board.sh
for board in $(emulator_boards); do
	[ "$board" = "$(default_board)" ] && continue
	for var in KMAP_DEFER=0 KMAP_DEFER=1; do
		name=$board-$(echo "$var" | tr 'A-Z=' 'a-z-')
		O=build/bench-vivt/$name
		make --no-print-directory BOARD="$board" O=$O "$var" BENCH_WAKES="$wakes" bench-image >> "$out/vivt-build.log" 2>&1 \
			|| { tail -20 "$out/vivt-build.log"; exit 1; }
		echo "bench: $var on vivt-emu's $board (BENCH_WAKES=$wakes)"
		"$emu" --machine "$board" --ram "$(image_config $O/bench.elf RAM_MB)" --input /dev/null \
			--stats-file "$out/vivt-emu-$name.stats" $O/bench.elf \
			> "$out/vivt-console-$name.log" 2> "$out/vivt-emu-$name.log" \
			|| { tail -5 "$out/vivt-emu-$name.log"; echo "bench: vivt-emu run on $board failed"; exit 1; }
		irqs+=("bench $var $board=$out/vivt-emu-$name.stats")
	done
done
# The demo, whole, in the eager scheme and the deferred one: its instructions
# and cache events (the demo's cost in each).
for var in KMAP_DEFER=0 KMAP_DEFER=1; do
	name=demo-$(echo "$var" | tr 'A-Z=' 'a-z-')
	O=build/bench-vivt/$name
	make --no-print-directory O=$O "$var" >> "$out/vivt-build.log" 2>&1 || { tail -20 "$out/vivt-build.log"; exit 1; }
	echo "bench: the demo, $var, on vivt-emu"
	"$emu" --input /dev/null --stats --stats-file "$out/vivt-emu-$name.stats" $O/lokal.elf > "$out/vivt-console-$name.log" 2> "$out/vivt-emu-$name.log" \
		|| { tail -5 "$out/vivt-emu-$name.log"; echo "bench: vivt-emu demo run failed"; exit 1; }
done
# The interrupts-off windows of these runs (both kmap schemes, bench and demo),
# and of make cyclic's under its full load where bench-cyclic.sh made them.
for name in eager defer; do
	stats=$out/cyclic/vivt-$name/cyclic-vivt.stats
	if [ -f "$stats" ]; then
		irqs+=("cyclic KMAP_DEFER=$([ $name = eager ] && echo 0 || echo 1)=$stats")
	fi
done
python3 tools/vivt-emu/scripts/bench-irqsoff.py "$out" "${irqs[@]}" \
	"demo KMAP_DEFER=0=$out/vivt-emu-demo-kmap_defer-0.stats" "demo KMAP_DEFER=1=$out/vivt-emu-demo-kmap_defer-1.stats"
python3 tools/vivt-emu/scripts/bench-demo.py "$out" "$out/vivt-emu-demo-kmap_defer-0.stats" "$out/vivt-emu-demo-kmap_defer-1.stats"
python3 tools/vivt-emu/scripts/bench-vivt.py tools/vivt-emu/cpu/arm926-costs.json "$out" "${args[@]}"
