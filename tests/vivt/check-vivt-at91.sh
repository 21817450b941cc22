#!/usr/bin/env bash
# make check-vivt-at91: the second board on the emulator.  Every image of
# tests/target/tests.list is built for BOARD=at91sam9g20-ek and run on
# vivt-emu --machine at91sam9g20-ek (AIC, DBGU, PIT, TC, PIO, PMC models)
# with the cache/TLB model: each must print what the list expects and exit
# as listed, with zero model reports.  Then the demo, whose PA6 switch
# marker goes from the emulator's VCD through tools/latency (one pulse per
# context switch the demo counts), a board-mode run (no semihosting: a
# quiet halt), two images on a 4 KiB D-cache with random replacement,
# four guests that each touch a register no model has (the run must stop
# naming it), and the AT91 driver mutants (tests/vivt/at91-mutants.sh) unless
# VIVT_MUTANTS=0.
#
# tests.list's lines for the vivt runner on this machine (machines * or
# at91sam9g20-ek) are the ones run. Configurations: make check runs the lines whose make variables are in
# VIVT_AT91_CONFIGS, comma-separated (default: "default", meaning no make
# variables: the debug configuration's checks are portable code, which
# check-vivt runs on versatilepb); every other line
# is listed as not run, with the reason.  VIVT_AT91_CONFIGS=all runs everything.
#
# Environment: TAP, VIVT_JOBS (default 2), VIVT_TIMEOUT (s per run, 400),
# VIVT_AT91_OUT (logs; default build/check/vivt-at91).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh
. tests/vivt/summary.sh
. tests/lib/images.sh
tap=${TAP:-/dev/stdout}
board=at91sam9g20-ek
emu=build/vivt-emu/vivt-emu
manifest=tests/target/tests.list
out=${VIVT_AT91_OUT:-build/check/vivt-at91}
jobs=${VIVT_JOBS:-2}
configs=${VIVT_AT91_CONFIGS:-default}
export VIVT_TIMEOUT=${VIVT_TIMEOUT:-400}
rm -rf "$out"
mkdir -p "$out"
tap_open "$tap"
TAP_WHAT=check-vivt-at91
notrun=0
note() { notrun=$((notrun + 1)); tap_note "not run on $board: $1"; }
start=$(date +%s)

[ -x "$emu" ] || { tap_result "not ok" "vivt-at91: $emu is not built"; exit 1; }

# ---- the runs: label | elf | ram MiB | status | regexes | stdin | emulator args
runs=$out/runs.txt
: > "$runs"
if build_images "$board" "" "$out" target-images lokal.elf; then	# the longest run first, so two jobs end together
	echo "demo|$O/lokal.elf|64|0|demo: data verification: 0 mismatching words && demo: DMA: line 6, written .* sent by the DBGU.s PDC && demo: DMA verification: 0 of 6||--seed 3 --jitter 20000 --vcd $out/demo.vcd" >> "$runs"
	echo "test_kmap_sched, board mode|$O/tests/test_kmap_sched.elf|64|0|halted quietly||--board --seed 4 --dcache-kb 4" >> "$runs"
	# Evictions all the time, the switch path included: a 4 KiB D-cache, random replacement.
	for image in test_kmap_sched test_highmem; do
		echo "$image, small cache|$O/tests/$image.elf|64|0|||--seed 7 --jitter 50000 --dcache-kb 4 --random-repl" >> "$runs"
	done
else
	tap_result "not ok" "vivt-at91: build of the demo failed: see $out/build-${O#build/}.log"
fi
# A register no model has stops the run, naming it (tools/vivt-emu/tests/guest/at91-touch.S).
for t in "w-fffffd44|WDT register \+0x4 is not modelled" "r-fffff104|AIC register \+0x104 is not modelled" \
	 "w-ffffea08|SDRAMC register \+0x8 is not modelled" "r-fffa4000|at 0xfffa4000: no device there"; do
	elf=build/vivt-emu/guest/at91-touch-${t%%|*}.elf
	echo "unmodelled register, $(basename "$elf" .elf)|$elf|64|1|vivt-emu: error: .*${t#*|}|||" >> "$runs"
done
seed=0
lines=$(list_lines "$manifest" vivt "$board")
while IFS='|' read -r image status regex vars input opt; do
	list_line_ok "vivt-at91: " || continue
	label="$image${vars:+ [$vars]}"
	if [ "$configs" != all ] && ! echo "$configs" | tr ',' '\n' | grep -qxF -- "${vars:-default}"; then
		note "$label: configuration not in make check's time budget (VIVT_AT91_CONFIGS=all runs it)"
		continue
	fi
	# shellcheck disable=SC2046
	if ! build_images "$board" "$vars" "$out" $(config_images "$lines" "$vars"); then
		tap_result "not ok" "vivt-at91: build of target images ($O) failed: see $out/build-${O#build/}.log"
		continue
	fi
	seed=$((seed + 1))
	echo "$label|$O/tests/$image.elf|$(image_config "$O/tests/$image.elf" RAM_MB)|$status|$regex|$input|--seed $seed --jitter 20000" >> "$runs"
done <<< "$lines"
total=$(wc -l < "$runs")
run_images "$runs" "$out" "$jobs" "$board" "vivt-at91: "

# ---- the marker pins through tools/latency: one PA6 pulse per context switch.
demo_log=$(grep -l 'demo: data verification' "$out"/*.log 2>/dev/null | head -1)
switches=$(sed -n 's/^demo: \([0-9]*\) context switches in all[[:space:]]*$/\1/p' "${demo_log:-/dev/null}")
if [ -s "$out/demo.vcd" ] && [ -n "$switches" ] &&
	pulses=$(switch_pulses "$out/demo.vcd" "$out/demo-latency.json" "$out/latency.txt"); then
	if [ "$pulses" = "$switches" ]; then
		tap_result ok "vivt-at91: tools/latency on the emulator's PA6/PA7 VCD: $pulses switch pulses = the demo's $switches context switches"
	else
		tap_result "not ok" "vivt-at91: tools/latency counts ${pulses:-no} switch pulses on PA6, the demo made $switches context switches ($out/latency.txt)"
	fi
else
	tap_result "not ok" "vivt-at91: no demo VCD or context-switch count for tools/latency (${demo_log:-no demo log}, $out/latency.txt)"
fi

# ---- interrupts-off windows over every run (irqsoff-cpu.c), and the calibration image.
: > "$out/irqsoff.txt"
read -r irqs_bound preempt_bound < <(python3 tools/vivt-emu/scripts/irqsoff-summary.py --bounds)
irqsoff_bound vivt-at91 "$irqs_bound" "$preempt_bound" "$runs" "$out" "$out/irqsoff.txt"
CALIB_LABEL=vivt-at91 tap_from "vivt-at91 IRQs-off calibration" tools/vivt-emu/tests/irqsoff-calib.sh "$emu" \
	"$(build_dir "$board")/tests/test_irqsoff_calib.elf" "$out/calib" "$irqs_bound" "$preempt_bound" --machine "$board" --ram 64
tap_summary "board $board" "tests.list on the emulator: $((TAP_N - TAP_FAILED)) passed, $TAP_FAILED failed, $notrun not run (listed above)"
# Emulator speed over every run (wall and CPU seconds: the machine may be shared).
emu_speed vivt-at91 "$out" "$total"
echo "vivt-at91: wall time $(( $(date +%s) - start )) s for $total runs on $jobs jobs"
if [ "${VIVT_MUTANTS:-1}" != 0 ]; then
	TAP="$tap" TAP_N0=$TAP_N tests/vivt/at91-mutants.sh || TAP_FAILED=$((TAP_FAILED + 1))
fi
tap_close
