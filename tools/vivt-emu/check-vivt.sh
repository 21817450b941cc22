#!/usr/bin/env bash
# make check-vivt: every image of tests/target/tests.list, in every
# configuration the list names, on vivt-emu with the cache/TLB model; each
# must print what the list expects and exit as under QEMU, with zero model
# reports.  Extra runs: a 4 KiB D-cache with random replacement, several
# IRQ-jitter seeds, the demo, the NOR image (boot stub in flash, shell
# copied to RAM), and a test image in board mode (no semihosting: it must
# end in a quiet halt the emulator detects).
# The emulator's own one-violation programs run in check-vivt-model
# (tools/vivt-emu/tests/arm/run.sh).
# Then the asm mutants (tools/vivt-emu/asm-mutants.sh) unless VIVT_MUTANTS=0.
#
# Environment: TAP (TAP output file, default stdout), VIVT_JOBS (parallel
# runs, default 2), VIVT_TIMEOUT (seconds per run, default 400),
# VIVT_MANIFEST (another list, for a quick run).
set -uo pipefail
# One brace group: bash reads it whole, so editing this file mid-run is safe.
{
cd "$(dirname "$0")/../.."
tap=${TAP:-/dev/stdout}
emu=build/vivt-emu/vivt-emu
manifest=${VIVT_MANIFEST:-tests/target/tests.list}
outdir=build/vivt-emu/check
jobs=${VIVT_JOBS:-2}
export VIVT_TIMEOUT=${VIVT_TIMEOUT:-400}
rm -rf "$outdir"
mkdir -p "$outdir"
n=0
failed=0
emit() { n=$((n + 1)); [ "$1" = ok ] || failed=$((failed + 1)); echo "$1 $n - $2" >> "$tap"; [ "$tap" = /dev/stdout ] || echo "$1 $n - $2"; }
. "$(dirname "$0")/run-manifest.sh"
. "$(dirname "$0")/../../tests/target/manifest.sh"

[ -x "$emu" ] || { emit "not ok" "vivt: $emu is not built"; exit 1; }

# ---- the runs: label | elf | ram MiB | status | regexes | stdin | emulator args
runs=$outdir/runs.txt
: > "$runs"
declare -A built
seed=0
build_variant() {	# $1 variant, $2 make vars, $3 extra targets; sets O, false if the build failed
	O=build/versatilepb-$1
	if [ -z "${built[$1${3:+ $3}]:-}" ]; then
		if make --no-print-directory O="$O" $2 target-images "$O/lokal.elf" ${3:-} \
			> "$outdir/build-$1.log" 2>&1; then built[$1${3:+ $3}]=ok; else built[$1${3:+ $3}]=failed; fi
	fi
	[ "${built[$1${3:+ $3}]}" = ok ]
}
# add_runs SEED: the runs of the manifest line just read, in configuration $vars.
add_runs() {
	if ! build_variant "$variant" "$vars"; then
		emit "not ok" "vivt: build of target images ($variant) failed: see $outdir/build-$variant.log"
		return
	fi
	ram=$(echo "$vars" | sed -n 's/.*RAM_MB=\([0-9]*\).*/\1/p')
	ram=${ram:-128}
	label="$image${vars:+ [$vars]}"
	echo "$label|$O/tests/$image.elf|$ram|$status|$regex|$input|--seed $1 --jitter 20000" >> "$runs"
	# Without extra make variables (or with KMAP_DEFER=0 alone): more jitter
	# seeds on the cheap kmap images, and the stress run again with a 4 KiB
	# D-cache and random replacement (evictions all the time, inside the
	# switch path too).
	if [ -z "$vars" ] || [ "$vars" = KMAP_DEFER=0 ]; then
		case "$image" in
		test_kmap_sched|test_highmem)
			for s in 101 102 103; do
				echo "$label|$O/tests/$image.elf|$ram|$status|$regex|$input|--seed $s --jitter 100000" >> "$runs"
			done
			echo "$label|$O/tests/$image.elf|$ram|$status|$regex|$input|--seed 7 --jitter 50000 --dcache-kb 4 --random-repl" >> "$runs";;
		test_kmap_stress)
			[ -z "$vars" ] && \
			echo "$label|$O/tests/$image.elf|$ram|$status|$regex|$input|--seed 8 --jitter 50000 --dcache-kb 4 --random-repl" >> "$runs";;
		esac
	fi
}
defer_seed=200
while IFS='|' read -r image status regex vars input; do
	# QEMU_ICOUNT and the like are for QEMU: the emulator always counts instructions.
	manifest_line || continue
	seed=$((seed + 1))
	add_runs $seed
	# Every image that maps highmem again in the eager scheme (KMAP_DEFER=0),
	# in the default configuration. The two schemes differ only in what a
	# local kmap leaves behind across a switch, so an image that maps no
	# highmem page runs the same code in both, and the other configurations
	# (RAM, pkmap and HZ sizes; DEBUG_HIGHMEM=1 builds the eager scheme
	# anyway) do not change what the scheme does.
	case "$image" in
	test_highmem|test_kmap_*|test_fault_hole|test_stack_guard)
		if [ -z "$vars" ]; then
			vars=KMAP_DEFER=0
			variant=KMAP_DEFER-0
			defer_seed=$((defer_seed + 1))
			add_runs $defer_seed
		fi;;
	esac
done < "$manifest"
if build_variant default "" nor-image; then
	# The NOR image: the boot stub in flash copies the shell image to RAM.
	echo "NOR image|$O/nor.elf|128|0|lokal> && exit +end the run|help\nexit\n|--image $O/shell.elf --seed 5 --dcache-kb 4" >> "$runs"
	echo "demo|$O/lokal.elf|128|0|demo: data verification: 0 mismatching words||--seed 3 --jitter 20000" >> "$runs"
	echo "test_kmap_sched, board mode|$O/tests/test_kmap_sched.elf|128|0|halted quietly||--board --seed 4 --dcache-kb 4" >> "$runs"
else
	emit "not ok" "vivt: build of the demo and the NOR image failed: see $outdir/build-default.log"
fi

# ---- the virtual logic analyzer: marker edges as a VCD lokal-latency reads
vcd=$outdir/switch.vcd
"$emu" --no-model --input /dev/null --vcd "$vcd" build/versatilepb-default/tests/test_kmap_sched.elf \
	> "$outdir/vcd-run.log" 2>&1
pulses=$(tools/latency/lokal-latency "$vcd" 2>&1 | awk '$1 == "switch" { print $2 }')
if [ "${pulses:-0}" -gt 0 ] 2>/dev/null; then
	emit "ok" "vivt: the switch marker's VCD reads in lokal-latency ($pulses switches)"
else
	emit "not ok" "vivt: lokal-latency found no switch pulses in $vcd ($(tools/latency/lokal-latency "$vcd" 2>&1 | head -2 | tr '\n' ' '))"
fi

# ---- --stats-at-lines, the per-figure counters make bench reads
sl=$(tools/vivt-emu/tests/stats-lines.sh "$emu" build/versatilepb-default/tests/test_highmem.elf "$outdir/stats-lines")
while IFS= read -r r; do emit "${r%% - *}" "${r#* - }"; done <<< "${sl:-not ok - vivt --stats-at-lines: its test printed nothing}"

# ---- the command line and run control: option ranges, a cut ELF, signals, limits, progress
cl=$(tools/vivt-emu/tests/cli.sh "$emu" build/versatilepb-default/shell.elf build/versatilepb-default/lokal.elf "$outdir/cli")
while IFS= read -r r; do emit "${r%% - *}" "${r#* - }"; done <<< "${cl:-not ok - vivt cli: its test printed nothing}"

# ---- one run: writes its TAP verdict to $outdir/<index>.result
run_one() {
	local idx=$1 line=$2 label elf ram status regex input args log rc verdict
	IFS='|' read -r label elf ram status regex input args <<< "$line"
	log=$outdir/$idx.log
	printf '%b' "$input" > "$outdir/$idx.in"
	# shellcheck disable=SC2086
	timeout -k 5 "$VIVT_TIMEOUT" build/vivt-emu/vivt-emu --ram "$ram" --input "$outdir/$idx.in" \
		--max-insns 20000000000 $args "$elf" > "$log" 2>&1
	rc=$?
	label="$label ($args)"
	verdict="ok"
	why=""
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		verdict="not ok"; why="timed out after ${VIVT_TIMEOUT}s"
	elif grep -q '^vivt-emu: REPORT' "$log"; then
		# The first report with its context lines (maintenance history, other PCs).
		verdict="not ok"; why="model reports: $(awk '/^vivt-emu: REPORT/ { if (n++) exit; print; next }
			n && /^vivt-emu:   / { sub(/^vivt-emu: +/, ""); print; next } n { exit }' "$log" |
			cut -c1-400 | paste -sd'|' - | sed 's/|/ | /g')"
	elif [ "$rc" -ne "$status" ]; then
		verdict="not ok"; why="exit status $rc, expected $status: $(grep '^vivt-emu' "$log" | head -2 | tr '\n' ' ' | cut -c1-300)"
	elif [ "$status" = 0 ] && grep -qE '^not ok [0-9]+ - ' "$log"; then
		verdict="not ok"; why="$(grep -E '^not ok [0-9]+ - ' "$log" | head -1)"
	else
		plan=$(grep -E '^1\.\.[0-9]+' "$log" | tr -d '\r' | head -1 | cut -d. -f3)
		got=$(grep -cE '^ok [0-9]+ - ' "$log")
		if [ -n "$plan" ] && [ "$got" -ne "$plan" ]; then
			verdict="not ok"; why="planned $plan cases, ran $got"
		fi
		while IFS= read -r re; do
			re=$(echo "$re" | sed 's/^ *//; s/ *$//')
			[ -z "$re" ] && continue
			tr -d '\r' < "$log" | grep -Eq -- "$re" || { verdict="not ok"; why="$why output lacks /$re/"; }
		done < <(echo "$regex" | sed 's/ && /\n/g')
	fi
	if [ "$verdict" = ok ]; then
		echo "ok - vivt: $label: exit $rc, 0 reports" > "$outdir/$idx.result"
	else
		echo "not ok - vivt: $label: $why (log $log)" > "$outdir/$idx.result"
	fi
}
export -f run_one
export outdir

start=$(date +%s)
i=$(wc -l < "$runs")
run_manifest "$runs" "$outdir" "$jobs" vivt

# Summary: emulator instructions per second over every run.
awk '/^vivt-emu: .* instructions in / {
	for (f = 1; f <= NF; f++) {
		if ($f == "instructions") insns += $(f-1)
		if ($f == "in" && $(f+2) == "s") secs += $(f+1)
		if ($f == "CPU,") cpu += $(f-2)
	}
} END { if (secs > 0 && cpu > 0) printf "vivt: %d runs, %.2f G instructions in %.1f s of emulation: %.1f M instr/s (%.1f M per CPU second)\n", runs, insns / 1e9, secs, insns / secs / 1e6, insns / cpu / 1e6 }' \
	runs="$i" "$outdir"/*.log | tee "$outdir/summary.txt"
# The jitter seeds are there to land IRQs inside the maintenance loops and
# the kmap switch steps: count where they landed, over every run.
read -r in_flush in_clean in_out in_in < <(awk '/^vivt-emu: IRQs inside / {
	gsub(",", ""); f += $5; c += $7; o += $9; i += $11 } END { print f + 0, c + 0, o + 0, i + 0 }' "$outdir"/*.log)
where="__cpuc_flush_dcache_area $in_flush, cpu_dcache_clean_area $in_clean, kmap_local_sched_out $in_out, kmap_local_sched_in $in_in"
if [ "$in_flush" -gt 0 ] && [ $((in_out + in_in)) -gt 0 ]; then
	emit "ok" "vivt: IRQs landed inside the flush loop and the kmap switch steps ($where)"
else
	emit "not ok" "vivt: IRQs never landed inside the flush loop or the kmap switch steps ($where)"
fi
# The eager scheme's runs, named in the summary (the rest run the default, deferred one).
d_runs=$(grep -cF 'KMAP_DEFER=0' "$runs")
d_bad=$(grep -lF 'KMAP_DEFER=0' "$outdir"/*.result 2>/dev/null | xargs -r grep -l '^not ok' | wc -l)
echo "vivt: $d_runs runs in configuration KMAP_DEFER=0 (Linux's eager scheme), $d_bad failing" | tee -a "$outdir/summary.txt"
# ---- interrupts-off windows (irqsoff-cpu.c): the figures over every run,
# the bound, the measurement's own unit test and calibration image.
irqs_bound=200
python3 tools/vivt-emu/scripts/irqsoff-summary.py vivt "$irqs_bound" "$runs" "$outdir" | tee -a "$outdir/summary.txt"
irqs_rc=${PIPESTATUS[0]}
# A run whose longest thread-context window is above the bound fails, one line each.
over=$(sed -n 's/^vivt: over the bound: //p' "$outdir/summary.txt")
if [ "$irqs_rc" = 0 ]; then emit ok "vivt: every thread-context IRQs-off window within $irqs_bound instructions"
elif [ -n "$over" ]; then while IFS= read -r r; do emit "not ok" "vivt: IRQs-off window above $irqs_bound instructions in $r"; done <<< "$over"
else emit "not ok" "vivt: irqsoff-summary.py failed (exit $irqs_rc)"; fi
ut=$(build/vivt-emu/test_irqsoff 2>&1)
rc=$?
ut=$(echo "$ut" | sed -n 's/^\(not ok\|ok\) [0-9]* - /\1 - vivt unit: /p')
[ "$rc" = 0 ] && [ -n "$ut" ] || ut="${ut:+$ut$'\n'}not ok - vivt unit: build/vivt-emu/test_irqsoff exit $rc"
cal=$(tools/vivt-emu/tests/irqsoff-calib.sh "$emu" build/versatilepb-default/tests/test_irqsoff_calib.elf "$outdir/calib" "$irqs_bound")
while IFS= read -r r; do emit "${r%% - *}" "${r#* - }"; done <<< "$ut"$'\n'"${cal:-not ok - vivt IRQs-off calibration: its test printed nothing}"
echo "vivt: wall time $(( $(date +%s) - start )) s for $i runs on $jobs jobs"

if [ "${VIVT_MUTANTS:-1}" != 0 ]; then
	TAP="$tap" N0=$n tools/vivt-emu/asm-mutants.sh || exit 1
fi
[ "$failed" -eq 0 ]
exit
}
