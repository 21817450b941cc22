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
# Then the asm mutants (tests/vivt/asm-mutants.sh) unless VIVT_MUTANTS=0, and
# the IRQ sweeps with their mutants (tests/vivt/sweep.sh).
#
# Environment: TAP (TAP output file, default stdout), VIVT_JOBS (parallel
# runs, default 2), VIVT_TIMEOUT (seconds per run, default 400),
# VIVT_MANIFEST (another list, for a quick run).
set -uo pipefail
# One brace group: bash reads it whole, so editing this file mid-run is safe.
{
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh
. tests/vivt/summary.sh
. tests/lib/images.sh
tap=${TAP:-/dev/stdout}
emu=build/vivt-emu/vivt-emu
manifest=${VIVT_MANIFEST:-tests/target/tests.list}
outdir=build/vivt-emu/check
jobs=${VIVT_JOBS:-2}
export VIVT_TIMEOUT=${VIVT_TIMEOUT:-400}
rm -rf "$outdir"
mkdir -p "$outdir"
tap_open "$tap"
TAP_WHAT=check-vivt
board=$(default_board)

[ -x "$emu" ] || { tap_result "not ok" "vivt: $emu is not built"; exit 1; }

# ---- the runs: label | elf | ram MiB | status | regexes | stdin | emulator args
runs=$outdir/runs.txt
: > "$runs"
seed=0
# add_runs SEED IMAGES...: the runs of the list line just read, in
# configuration $vars, whose build makes IMAGES.
add_runs() {
	local seed=$1
	shift
	if ! build_images "$board" "$vars" "$outdir" "$@"; then
		tap_result "not ok" "vivt: build of target images ($O) failed: see $outdir/build-${O#build/}.log"
		return
	fi
	ram=$(image_config "$O/tests/$image.elf" RAM_MB)
	label="$image${vars:+ [$vars]}"
	echo "$label|$O/tests/$image.elf|$ram|$status|$regex|$input|--seed $seed --jitter 20000" >> "$runs"
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
lines=$(list_lines "$manifest" vivt "$board")
while IFS='|' read -r image status regex vars input opt; do
	list_line_ok "vivt: " || continue
	seed=$((seed + 1))
	# shellcheck disable=SC2046
	add_runs $seed $(config_images "$lines" "$vars")
	# The lines tests.list marks vivt:eager again in Linux's eager scheme.
	if [ "$opt" = eager ]; then
		# shellcheck disable=SC2046
		set -- $(config_images "$lines" "$vars" eager)
		vars="${vars:+$vars }KMAP_DEFER=0"
		defer_seed=$((defer_seed + 1))
		add_runs $defer_seed "$@"
	fi
done <<< "$lines"
if build_images "$board" "" "$outdir" target-images lokal.elf shell.elf pipeline.elf cyclic.elf nor-image; then
	# The NOR image: the boot stub in flash copies the shell image to RAM.
	echo "NOR image|$O/nor.elf|128|0|lokal> && exit +end the run|help\nexit\n|--image $O/shell.elf --seed 5 --dcache-kb 4" >> "$runs"
	echo "test_kmap_sched, board mode|$O/tests/test_kmap_sched.elf|128|0|halted quietly||--board --seed 4 --dcache-kb 4" >> "$runs"
	# make cyclic under its full load, console input sent at 115200 baud
	# whatever the driver does (about 1400 bytes in the run's 0.12 s; as a
	# person types, one byte a holdoff, it would be about 200), with the
	# pins captured.
	cyclic_periods=$(image_config "$O/cyclic.elf" CYCLIC_PERIODS)
	cyclic_input=$(awk 'BEGIN { for (i = 0; i < 64; i++) printf "line %03d: the quick brown fox jumps over the lazy dog\\n", i }')
	echo "cyclic|$O/cyclic.elf|128|0|cyclic: thread .* over $cyclic_periods periods && cyclic: load done:.* console [1-9][0-9][0-9][0-9]|$cyclic_input|--seed 9 --input-line --vcd $outdir/cyclic.vcd" >> "$runs"
	cyclic_run=$(wc -l < "$runs")
else
	tap_result "not ok" "vivt: build of the demo and the NOR image failed: see $outdir/build-${O#build/}.log"
fi

# The demo, in the board's smaller demo configuration (board.mk's BOARD_VIVT_DEMO_VARS).
demo_vars=$(board_var "$board" BOARD_VIVT_DEMO_VARS)
if build_images "$board" "$demo_vars" "$outdir" lokal.elf; then
	echo "demo${demo_vars:+ [$demo_vars]}|$O/lokal.elf|$(image_config "$O/lokal.elf" RAM_MB)|0|demo: data verification: 0 mismatching words && demo: DMA verification: 0 copies||--seed 3 --jitter 20000" >> "$runs"
else
	tap_result "not ok" "vivt: build of the demo failed: see $outdir/build-${O#build/}.log"
fi

# ---- the virtual logic analyzer: marker edges as a VCD lokal-latency reads
vcd=$outdir/switch.vcd
O=$(build_dir "$board")
"$emu" --no-model --input /dev/null --vcd "$vcd" "$O/tests/test_kmap_sched.elf" \
	> "$outdir/vcd-run.log" 2>&1
pulses=$(switch_pulses "$vcd" "$outdir/switch.json" "$outdir/latency.txt")
if [ "${pulses:-0}" -gt 0 ] 2>/dev/null; then
	tap_result ok "vivt: the switch marker's VCD reads in lokal-latency ($pulses switches)"
else
	tap_result "not ok" "vivt: lokal-latency found no switch pulses in $vcd ($(head -2 "$outdir/latency.txt" | tr '\n' ' '))"
fi

# ---- --stats-at-lines, the per-figure counters make bench reads
tap_from "vivt --stats-at-lines" tools/vivt-emu/tests/stats-lines.sh "$emu" "$O/tests/test_highmem.elf" "$outdir/stats-lines"

# ---- the command line and run control: option ranges, a cut ELF, signals, limits, progress
tap_from "vivt cli" tools/vivt-emu/tests/cli.sh "$emu" "$O/shell.elf" "$O/lokal.elf" "$outdir/cli"
# ---- WFI with the console input open and silent: waiting for input, or a halt
tap_from "vivt idle" tools/vivt-emu/tests/idle.sh "$emu" "$O/shell.elf" "$O/pipeline.elf" "$outdir/idle"

start=$(date +%s)
i=$(wc -l < "$runs")
run_images "$runs" "$outdir" "$jobs" "$board" "vivt: "

# The cyclic run: the pins' figures (the timer's line and the wake marker in
# the VCD) are the firmware's own, within the counter's resolution.
if [ -n "${cyclic_run:-}" ]; then
	if tools/latency/lokal-latency cyclic "$outdir/$cyclic_run.log" --pin "$outdir/cyclic.vcd" \
		> "$outdir/cyclic-pins.txt" 2>&1; then
		tap_result ok "vivt: make cyclic's figures and the pins' agree ($(grep -h '^thread max' "$outdir/cyclic-pins.txt" | cut -d'(' -f1))"
	else
		tap_result "not ok" "vivt: make cyclic's figures and the pins' do not agree" "see $outdir/cyclic-pins.txt"
		sed 's/^/    | /' "$outdir/cyclic-pins.txt"
	fi
fi

# Summary: emulator instructions per second over every run, from the
# key=value files run-image has each run write (LOG.stats).
emu_speed vivt "$outdir" "$i" | tee "$outdir/summary.txt"
# The jitter seeds are there to land IRQs inside the maintenance loops and
# the kmap switch steps: count where they landed, over every run.
read -r in_flush in_clean in_out in_in < <(awk -F= '
	$1 == "irqs_in.__cpuc_flush_dcache_area" { f += $2 } $1 == "irqs_in.cpu_dcache_clean_area" { c += $2 }
	$1 == "irqs_in.kmap_local_sched_out" { o += $2 } $1 == "irqs_in.kmap_local_sched_in" { i += $2 }
	END { print f + 0, c + 0, o + 0, i + 0 }' "$outdir"/*.log.stats)
where="__cpuc_flush_dcache_area $in_flush, cpu_dcache_clean_area $in_clean, kmap_local_sched_out $in_out, kmap_local_sched_in $in_in"
if [ "$in_flush" -gt 0 ] && [ $((in_out + in_in)) -gt 0 ]; then
	tap_result ok "vivt: IRQs landed inside the flush loop and the kmap switch steps ($where)"
else
	tap_result "not ok" "vivt: IRQs never landed inside the flush loop or the kmap switch steps ($where)"
fi
# The eager scheme's runs, named in the summary (the rest run the default, deferred one).
d_runs=$(grep -cF 'KMAP_DEFER=0' "$runs")
d_bad=$(grep -lF 'KMAP_DEFER=0' "$outdir"/*.result 2>/dev/null | xargs -r grep -l '^not ok' | wc -l)
echo "vivt: $d_runs runs in configuration KMAP_DEFER=0 (Linux's eager scheme), $d_bad failing" | tee -a "$outdir/summary.txt"
# ---- interrupts-off windows (irqsoff-cpu.c): the figures over every run,
# the bound, the measurement's own unit test and calibration image.
read -r irqs_bound preempt_bound handler_bound < <(python3 tools/vivt-emu/scripts/irqsoff-summary.py --bounds)
irqsoff_bound vivt "$irqs_bound" "$preempt_bound" "$handler_bound" "$runs" "$outdir" "$outdir/summary.txt"
TAP_PREFIX="vivt unit: " tap_from "vivt unit: build/vivt-emu/test_irqsoff" build/vivt-emu/test_irqsoff
TAP_PREFIX="vivt unit: " tap_from "vivt unit: build/vivt-emu/test_pipeline" build/vivt-emu/test_pipeline
tap_from "vivt IRQs-off calibration" tools/vivt-emu/tests/irqsoff-calib.sh "$emu" "$O/tests/test_irqsoff_calib.elf" \
	"$outdir/calib" "$irqs_bound" "$preempt_bound"
echo "vivt: wall time $(( $(date +%s) - start )) s for $i runs on $jobs jobs"

if [ "${VIVT_MUTANTS:-1}" != 0 ]; then
	TAP="$tap" TAP_N0=$TAP_N TAP_COUNT_FILE="$outdir/asm-mutants.count" tests/vivt/asm-mutants.sh || exit 1
	TAP_N=$(cat "$outdir/asm-mutants.count")
fi
# The IRQ sweeps (an IRQ before every instruction of a switch or wake path)
# and their mutants, numbered after the lines above.
TAP="$tap" TAP_N0=$TAP_N VIVT_JOBS="$jobs" SWEEP_MUTANTS="${VIVT_MUTANTS:-1}" \
	tests/vivt/sweep.sh || exit 1
tap_close
exit
}
