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
# naming it), and the AT91 driver mutants (tools/vivt-emu/at91-mutants.sh) unless
# VIVT_MUTANTS=0.
#
# tests.list markers (comment lines, so other runners skip them):
#   #@at91sam9g20-ek IMAGE | STATUS | REGEXES | VARS
#       on this board the line for IMAGE with VARS expects these instead
#       (addresses that follow the board's RAM base);
#   #@versatilepb-only IMAGE | VARS | WHY
#       the line needs a versatilepb device: not run here, and said so.
# Configurations: make check runs the lines whose make variables are in
# VIVT_AT91_CONFIGS, comma-separated (default: "default,DEBUG_HIGHMEM=1",
# "default" meaning none); every other line
# is listed as not run, with the reason.  VIVT_AT91_CONFIGS=all runs everything.
#
# Environment: TAP, VIVT_JOBS (default 2), VIVT_TIMEOUT (s per run, 400),
# VIVT_AT91_OUT (logs; default build/check/vivt-at91).
set -uo pipefail
cd "$(dirname "$0")/../.."
tap=${TAP:-/dev/stdout}
board=at91sam9g20-ek
emu=build/vivt-emu/vivt-emu
manifest=tests/target/tests.list
out=${VIVT_AT91_OUT:-build/check/vivt-at91}
jobs=${VIVT_JOBS:-2}
configs=${VIVT_AT91_CONFIGS:-default,DEBUG_HIGHMEM=1}
export VIVT_TIMEOUT=${VIVT_TIMEOUT:-400}
rm -rf "$out"
mkdir -p "$out"
n=0
failed=0
notrun=0
emit() { n=$((n + 1)); [ "$1" = ok ] || failed=$((failed + 1)); echo "$1 $n - $2" >> "$tap"; [ "$tap" = /dev/stdout ] || echo "$1 $n - $2"; }
. "$(dirname "$0")/run-manifest.sh"
. "$(dirname "$0")/../../tests/target/manifest.sh"
note() { notrun=$((notrun + 1)); echo "# not run on $board: $1" >> "$tap"; [ "$tap" = /dev/stdout ] || echo "# not run on $board: $1"; }
trim() { sed 's/^ *//; s/ *$//'; }
start=$(date +%s)

[ -x "$emu" ] || { emit "not ok" "vivt-at91: $emu is not built"; exit 1; }

# Board-specific expectations and versatilepb-only lines, keyed "image|vars".
declare -A over_status over_regex only_vpb
while IFS='|' read -r head a b c; do
	key=${head#\#@* }
	case "$head" in
	"#@$board "*)
		k="$(echo "$key" | xargs)|$(echo "$c" | xargs)"
		over_status[$k]=$(echo "$a" | xargs)
		over_regex[$k]=$(echo "$b" | trim);;
	"#@versatilepb-only "*)
		only_vpb["$(echo "$key" | xargs)|$(echo "$a" | xargs)"]=$(echo "$b" | trim);;
	esac
done < <(grep '^#@' "$manifest")

declare -A built
build_variant() {	# $1 variant, $2 make vars; prints the O dir or nothing
	local O=build/$board/$1
	if [ -z "${built[$1]:-}" ]; then
		# shellcheck disable=SC2086
		if make --no-print-directory -j"$jobs" BOARD=$board O="$O" $2 target-images "$O/lokal.elf" \
			> "$out/build-$1.log" 2>&1; then built[$1]=ok; else built[$1]=failed; fi
	fi
	[ "${built[$1]}" = ok ] && echo "$O"
}

# ---- the runs: label | elf | ram MiB | status | regexes | stdin | emulator args
runs=$out/runs.txt
: > "$runs"
O=$(build_variant default "")
if [ -n "$O" ]; then	# the longest run first, so two jobs end together
	echo "demo|$O/lokal.elf|64|0|demo: data verification: 0 mismatching words||--seed 3 --jitter 20000 --vcd $out/demo.vcd" >> "$runs"
	echo "test_kmap_sched, board mode|$O/tests/test_kmap_sched.elf|64|0|halted quietly||--board --seed 4 --dcache-kb 4" >> "$runs"
	# Evictions all the time, the switch path included: a 4 KiB D-cache, random replacement.
	for image in test_kmap_sched test_highmem; do
		echo "$image, small cache|$O/tests/$image.elf|64|0|||--seed 7 --jitter 50000 --dcache-kb 4 --random-repl" >> "$runs"
	done
else
	emit "not ok" "vivt-at91: build of the demo failed: see $out/build-default.log"
fi
# A register no model has stops the run, naming it (tools/vivt-emu/tests/guest/at91-touch.S).
for t in "w-fffffd44|WDT register \+0x4 is not modelled" "r-fffff104|AIC register \+0x104 is not modelled" \
	 "w-ffffea08|SDRAMC register \+0x8 is not modelled" "r-fffa4000|at 0xfffa4000: no device there"; do
	elf=build/vivt-emu/guest/at91-touch-${t%%|*}.elf
	echo "unmodelled register, $(basename "$elf" .elf)|$elf|64|1|vivt-emu: error: .*${t#*|}|||" >> "$runs"
done
seed=0
while IFS='|' read -r image status regex vars input; do
	# QEMU_ICOUNT and the like are for QEMU: the emulator always counts instructions.
	manifest_line || continue
	key="$image|$vars"
	label="$image${vars:+ [$vars]}"
	if [ -n "${only_vpb[$key]+x}" ]; then
		note "$label: needs versatilepb: ${only_vpb[$key]}"
		continue
	fi
	if [ "$configs" != all ] && ! echo "$configs" | tr ',' '\n' | grep -qxF -- "${vars:-default}"; then
		note "$label: configuration not in make check's time budget (VIVT_AT91_CONFIGS=all runs it)"
		continue
	fi
	[ -n "${over_status[$key]+x}" ] && status=${over_status[$key]} regex=${over_regex[$key]}
	O=$(build_variant "$variant" "$vars")
	if [ -z "$O" ]; then
		emit "not ok" "vivt-at91: build of target images ($variant) failed: see $out/build-$variant.log"
		continue
	fi
	ram=$(echo "$vars" | sed -n 's/.*RAM_MB=\([0-9]*\).*/\1/p')
	seed=$((seed + 1))
	echo "$label|$O/tests/$image.elf|${ram:-64}|$status|$regex|$input|--seed $seed --jitter 20000" >> "$runs"
done < "$manifest"
# ---- one run: writes its TAP verdict to $out/<index>.result
run_one() {
	local idx=$1 line=$2 label elf ram status regex input args log rc why="" re plan got
	IFS='|' read -r label elf ram status regex input args <<< "$line"
	log=$out/$idx.log
	printf '%b' "$input" > "$out/$idx.in"
	# shellcheck disable=SC2086
	timeout -k 5 "$VIVT_TIMEOUT" build/vivt-emu/vivt-emu --machine at91sam9g20-ek --ram "$ram" \
		--input "$out/$idx.in" --max-insns 20000000000 $args "$elf" > "$log" 2>&1
	rc=$?
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		why="timed out after ${VIVT_TIMEOUT}s"
	elif grep -q '^vivt-emu: REPORT' "$log"; then
		why="model reports: $(grep -m1 '^vivt-emu: REPORT' "$log" | cut -c1-300)"
	elif [ "$rc" -ne "$status" ]; then
		why="exit status $rc, expected $status: $(grep '^vivt-emu' "$log" | head -2 | tr '\n' ' ' | cut -c1-300)"
	elif [ "$status" = 0 ] && grep -qE '^not ok [0-9]+ - ' "$log"; then
		why="$(grep -E '^not ok [0-9]+ - ' "$log" | head -1)"
	else
		plan=$(grep -E '^1\.\.[0-9]+' "$log" | tr -d '\r' | head -1 | cut -d. -f3)
		got=$(grep -cE '^ok [0-9]+ - ' "$log")
		[ -n "$plan" ] && [ "$got" -ne "$plan" ] && why="planned $plan cases, ran $got"
		while IFS= read -r re; do
			re=$(echo "$re" | sed 's/^ *//; s/ *$//')
			[ -z "$re" ] && continue
			tr -d '\r' < "$log" | grep -Eq -- "$re" || why="$why output lacks /$re/"
		done < <(echo "$regex" | sed 's/ && /\n/g')
	fi
	if [ -z "$why" ]; then
		echo "ok - vivt-at91: $label ($args): exit $rc, 0 reports" > "$out/$idx.result"
	else
		echo "not ok - vivt-at91: $label ($args): $why (log $log)" > "$out/$idx.result"
	fi
}
export -f run_one
export out

total=$(wc -l < "$runs")
run_manifest "$runs" "$out" "$jobs" vivt-at91

# ---- the marker pins through tools/latency: one PA6 pulse per context switch.
demo_log=$(grep -l 'demo: data verification' "$out"/*.log 2>/dev/null | head -1)
switches=$(sed -n 's/^demo: \([0-9]*\) context switches.*/\1/p' "${demo_log:-/dev/null}" | head -1)
if [ -s "$out/demo.vcd" ] && [ -n "$switches" ] &&
	tools/latency/lokal-latency "$out/demo.vcd" --json "$out/demo-latency.json" > "$out/latency.txt" 2>&1; then
	pulses=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["inputs"][0]["switch"]["count"])' \
		"$out/demo-latency.json" 2>/dev/null)
	if [ "$pulses" = "$switches" ]; then
		emit ok "vivt-at91: tools/latency on the emulator's PA6/PA7 VCD: $pulses switch pulses = the demo's $switches context switches"
	else
		emit "not ok" "vivt-at91: tools/latency counts ${pulses:-no} switch pulses on PA6, the demo made $switches context switches ($out/latency.txt)"
	fi
else
	emit "not ok" "vivt-at91: no demo VCD or context-switch count for tools/latency (${demo_log:-no demo log}, $out/latency.txt)"
fi

# ---- interrupts-off windows over every run (irqsoff-cpu.c), and the calibration image.
python3 tools/vivt-emu/scripts/irqsoff-summary.py vivt-at91 200 "$runs" "$out" ||
	echo "vivt-at91: (the IRQs-off bound is reported, not yet enforced)"
cal=$(CALIB_LABEL=vivt-at91 tools/vivt-emu/tests/irqsoff-calib.sh "$emu" "build/$board/default/tests/test_irqsoff_calib.elf" \
	"$out/calib" 200 --machine "$board" --ram 64)
while IFS= read -r r; do emit "${r%% - *}" "${r#* - }"; done <<< "${cal:-not ok - vivt-at91 IRQs-off calibration: its test printed nothing}"
echo "board $board: tests.list on the emulator: $((n - failed)) passed, $failed failed, $notrun not run (listed above)"
# Emulator speed over every run (wall and CPU seconds: the machine may be shared).
cat "$out"/*.log | sed -n 's/^vivt-emu: .* exit -\{0,1\}[0-9]*, \([0-9]*\) instructions in \([0-9.]*\) s (.*; \([0-9.]*\) s CPU.*/\1 \2 \3/p' |
	awk '{ i += $1; w += $2; c += $3 } END { if (w > 0 && c > 0)
		printf "vivt-at91: %.2f G instructions in %.1f s of emulation (%.1f s CPU): %.1f M instr/s per CPU second\n", i / 1e9, w, c, i / c / 1e6 }'
echo "vivt-at91: wall time $(( $(date +%s) - start )) s for $total runs on $jobs jobs"
if [ "${VIVT_MUTANTS:-1}" != 0 ]; then
	TAP="$tap" N0=$n tools/vivt-emu/at91-mutants.sh || failed=$((failed + 1))
fi
[ "$failed" -eq 0 ]
