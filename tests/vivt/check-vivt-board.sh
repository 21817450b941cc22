#!/usr/bin/env bash
# make check-vivt-BOARD for a board the emulator has a machine for (of the
# board's name, as make boards finds it): every image of tests/target/tests.list for the
# vivt runner on that machine, built for the board in the configurations
# of VIVT_CONFIGS (comma-separated; default "default", meaning no make
# variables; "all" runs every line; the rest are listed as not run), on
# vivt-emu with the cache/TLB model: each prints what the list expects and
# exits as listed, with zero model reports. Then the demo (in the board's
# BOARD_VIVT_DEMO_VARS configuration), whose switch-marker pulses in the
# emulator's VCD are one per context switch it counts, a board-mode run
# (no semihosting: a quiet halt), and the IRQs-off and preemption-off
# bounds over every run; for every board too: test_kmap_sched and
# test_highmem on a 4 KiB D-cache with random replacement (evictions all the
# time, the switch path included) and the IRQs-off calibration image. What
# a board or its machine adds is data: BOARD_VIVT_DEMO_EXPECT (board.mk:
# more lines the demo must print), the rows of
# tools/vivt-emu/tests/guest/unmodelled.list for the machine (a guest that
# touches an address no model has: the run must stop, naming it), and
# board/BOARD/mutants.list (its driver mutants: tests/vivt/board-mutants.sh,
# unless VIVT_MUTANTS=0).
#
#   tests/vivt/check-vivt-board.sh BOARD
# Environment: TAP, VIVT_JOBS (default 2), VIVT_TIMEOUT (s per run, 400), VIVT_CONFIGS.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh
. tests/vivt/summary.sh
. tests/lib/images.sh
board=${1:?usage: tests/vivt/check-vivt-board.sh BOARD}
tap=${TAP:-/dev/stdout}
emu=build/vivt-emu/vivt-emu
manifest=tests/target/tests.list
out=build/check/vivt-$board
jobs=${VIVT_JOBS:-2}
configs=${VIVT_CONFIGS:-default}
export VIVT_TIMEOUT=${VIVT_TIMEOUT:-400}
rm -rf "$out"
mkdir -p "$out"
tap_open "$tap"
TAP_WHAT=check-vivt-$board
notrun=0
note() { notrun=$((notrun + 1)); tap_note "not run on $board: $1"; }
start=$(date +%s)

machine=$board
grep -qs "\.name = \"$board\"" tools/vivt-emu/machine/*.c ||
	{ tap_result "not ok" "vivt-$board: vivt-emu has no machine $board (tools/vivt-emu/machine)"; exit 1; }
[ -x "$emu" ] || { tap_result "not ok" "vivt-$board: $emu is not built"; exit 1; }
demo_vars=$(board_var "$board" BOARD_VIVT_DEMO_VARS) || exit 1
demo_expect=$(board_var "$board" BOARD_VIVT_DEMO_EXPECT) || exit 1

# ---- the runs: label | elf | ram MiB | status | regexes | stdin | emulator args
runs=$out/runs.txt
: > "$runs"
if build_images "$board" "$demo_vars" "$out" lokal.elf; then	# the longest run first
	ram=$(image_config "$O/lokal.elf" RAM_MB)
	echo "demo${demo_vars:+ [$demo_vars]}|$O/lokal.elf|$ram|0|demo: data verification: 0 mismatching words && demo: all highmem data verified${demo_expect:+ && $demo_expect}||--seed 3 --jitter 20000 --vcd $out/demo.vcd" >> "$runs"
	demo_run=$(wc -l < "$runs")
else
	tap_result "not ok" "vivt-$board: build of the demo failed: see $out/build-${O#build/}.log"
fi
if build_images "$board" "" "$out" tests/test_kmap_sched.elf tests/test_highmem.elf tests/test_irqsoff_calib.elf; then
	for image in test_kmap_sched test_highmem; do
		echo "$image, small cache|$O/tests/$image.elf|$(image_config "$O/tests/$image.elf" RAM_MB)|0|||--seed 7 --jitter 50000 --dcache-kb 4 --random-repl" >> "$runs"
	done
else
	tap_result "not ok" "vivt-$board: build of the default images failed: see $out/build-${O#build/}.log"
fi
# Guests of the machine's own: an address no model has stops the run, naming it.
guests=()
while IFS='|' read -r m guest says; do
	trim "$m" > /dev/null; m=$TRIMMED
	[ "$m" = "$machine" ] || continue
	trim "$guest" > /dev/null; guest=$TRIMMED
	trim "$says" > /dev/null; says=$TRIMMED
	guests+=("build/vivt-emu/guest/$guest")
	echo "unmodelled register, ${guest%.elf}|build/vivt-emu/guest/$guest|64|1|vivt-emu: error: .*$says|||" >> "$runs"
done < <(grep -v '^[[:space:]]*\(#\|$\)' tools/vivt-emu/tests/guest/unmodelled.list)
if [ "${#guests[@]}" -gt 0 ] && ! make --no-print-directory "${guests[@]}" > "$out/build-guests.log" 2>&1; then
	tap_result "not ok" "vivt-$board: build of the unmodelled-register guests failed: see $out/build-guests.log"
fi
seed=0
lines=$(list_lines "$manifest" vivt "$board")
while IFS='|' read -r image status regex vars input opt; do
	list_line_ok "vivt-$board: " || continue
	label="$image${vars:+ [$vars]}"
	if [ "$configs" != all ] && ! echo "$configs" | tr ',' '\n' | grep -cxF -- "${vars:-default}" > /dev/null; then
		note "$label: configuration not in make check's time budget (VIVT_CONFIGS=all runs it)"
		continue
	fi
	# shellcheck disable=SC2046
	if ! build_images "$board" "$vars" "$out" $(config_images "$lines" "$vars"); then
		tap_result "not ok" "vivt-$board: build of target images ($O) failed: see $out/build-${O#build/}.log"
		continue
	fi
	seed=$((seed + 1))
	echo "$label|$O/tests/$image.elf|$(image_config "$O/tests/$image.elf" RAM_MB)|$status|$regex|$input|--seed $seed --jitter 20000" >> "$runs"
	if [ "$image" = test_kmap_sched ] && [ -z "$vars" ]; then
		echo "test_kmap_sched, board mode|$O/tests/test_kmap_sched.elf|$(image_config "$O/tests/$image.elf" RAM_MB)|0|halted quietly||--board --seed 4 --dcache-kb 4" >> "$runs"
	fi
done <<< "$lines"
total=$(wc -l < "$runs")
run_images "$runs" "$out" "$jobs" "$machine" "vivt-$board: "

# ---- the switch marker through tools/latency: one pulse per context switch.
switches=$(sed -n 's/^demo: \([0-9]*\) context switches in all[[:space:]]*$/\1/p' "$out/${demo_run:-0}.log" 2>/dev/null)
if [ -s "$out/demo.vcd" ] && [ -n "$switches" ] &&
	pulses=$(switch_pulses "$out/demo.vcd" "$out/demo-latency.json" "$out/latency.txt"); then
	if [ "$pulses" = "$switches" ]; then
		tap_result ok "vivt-$board: tools/latency on the emulator's marker VCD: $pulses switch pulses = the demo's $switches context switches"
	else
		tap_result "not ok" "vivt-$board: tools/latency counts ${pulses:-no} switch pulses, the demo made $switches context switches ($out/latency.txt)"
	fi
else
	tap_result "not ok" "vivt-$board: no demo VCD or context-switch count for tools/latency ($out/latency.txt)"
fi

# ---- interrupts-off and preemption-off windows over every run.
: > "$out/irqsoff.txt"
read -r irqs_bound preempt_bound handler_bound < <(python3 tools/vivt-emu/scripts/irqsoff-summary.py --bounds)
irqsoff_bound "vivt-$board" "$irqs_bound" "$preempt_bound" "$handler_bound" "$runs" "$out" "$out/irqsoff.txt"
CALIB_LABEL=vivt-$board tap_from "vivt-$board IRQs-off calibration" tools/vivt-emu/tests/irqsoff-calib.sh "$emu" \
	"$(build_dir "$board")/tests/test_irqsoff_calib.elf" "$out/calib" "$irqs_bound" "$preempt_bound" \
	--machine "$machine" --ram "$(image_config "$(build_dir "$board")/tests/test_irqsoff_calib.elf" RAM_MB)"
tap_summary "board $board" "tests.list on the emulator: $((TAP_N - TAP_FAILED)) passed, $TAP_FAILED failed, $notrun not run (listed above)"
emu_speed "vivt-$board" "$out" "$total"
echo "vivt-$board: wall time $(( $(date +%s) - start )) s for $total runs on $jobs jobs"
# The board's driver mutants, where it has a table of them.
if [ -r "board/$board/mutants.list" ] && [ "${VIVT_MUTANTS:-1}" != 0 ]; then
	TAP="$tap" TAP_N0=$TAP_N TAP_COUNT_FILE="$out/mutants.count" tests/vivt/board-mutants.sh "$board" ||
		TAP_FAILED=$((TAP_FAILED + 1))
	TAP_N=$(cat "$out/mutants.count" 2>/dev/null || echo "$TAP_N")
fi
tap_close
