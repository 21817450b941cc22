#!/usr/bin/env bash
# The emulator's IRQ sweeps (vivt-emu --sweep, part of check-vivt): one
# IRQ is landed before every instruction of one visit to a switch-path,
# wake-path or heap function, a run each, to the end under the cache/TLB
# model; every run must pass (status 0, no report), and the IRQs must
# really be taken there (none on a masked line: a visit before the image
# has its handler, say because the boot makes one more call, fails the
# sweep rather than passing it unswept). Images: test_kmap_irq_sweep (its
# handler maps the page the interrupted thread holds and wakes a thread
# that maps it too) and test_heap_irq_sweep (its handler wakes a thread
# that allocates from newlib's heap). Then the
# sweep mutants (tests/vivt/sweep-mutants.list): each breaks the ELF that
# ships in one place of a swept range and the sweep its table line names
# must fail; whether the plain run of the same image catches it is said too.
# Summary figures: "vivt sweep instructions swept", "vivt sweep runs",
# "vivt sweep failing runs", "vivt sweep reports", "vivt sweep mutants killed".
#
# Every visit is short (41 to 90 instructions), so every instruction is
# swept, none sampled: about 310 runs of ~100,000 instructions each after a
# shared 2.8 M-instruction boot, forked at the arrival.
#
# Environment: TAP (default stdout), TAP_N0, VIVT_JOBS (runs at once,
# default 2), SWEEP_MUTANTS=0 skips the mutants.
set -uo pipefail
# One brace group: bash reads it whole, so editing this file mid-run is safe.
{
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh
. tests/lib/images.sh
. tests/lib/mutants.sh
tap_open "${TAP:-/dev/stdout}"
TAP_WHAT=vivt-sweep
emu=build/vivt-emu/vivt-emu
out=build/vivt-emu/sweep
jobs=${VIVT_JOBS:-2}
rm -rf "$out"
mkdir -p "$out"

[ -x "$emu" ] || { tap_result "not ok" "vivt sweep: $emu is not built"; exit 1; }

# The sweeps: image | range[#arrival] | make vars | what the range is. The
# arrival (default 1) counts calls from reset: _malloc_r's 15th is the
# second of the four mallocs that refill freed holes (the boot and the
# test's first mallocs come before it).
sweeps=(
	"test_kmap_irq_sweep|kmap_local_sched_in||the deferred scheme's switch-in walk over two slots of another thread's pages"
	"test_kmap_irq_sweep|up||the wake path of a semaphore whose waiter preempts the waker"
	"test_kmap_irq_sweep|kmap_local_sched_in|KMAP_DEFER=0|the eager scheme's switch-in"
	"test_kmap_irq_sweep|kmap_local_sched_out|KMAP_DEFER=0|the eager scheme's switch-out teardown, interrupts on"
	"test_heap_irq_sweep|_malloc_r#15||newlib's malloc splitting a freed hole while the woken thread allocates and frees from the same lists"
)

# elf_for IMAGE VARS: ELF becomes IMAGE built with VARS (built here if it is
# not yet); false if it does not build. In this shell, not a subshell: O and
# the build cache stay.
elf_for() {
	build_images versatilepb "$2" "$out" "tests/$1.elf" || return 1
	elf=$O/tests/$1.elf
}

# sweep ELF RANGE[#ARRIVAL] LOG: the sweep's run; figures() reads its log.
sweep_run() {
	local range=${2%%#*} arrival=1
	[[ $2 == *#* ]] && arrival=${2#*#}
	mkdir -p "$3.runs"
	timeout -k 5 600 "$emu" --input /dev/null --sweep "$range" --sweep-arrival "$arrival" \
		--sweep-jobs "$jobs" --sweep-dir "$3.runs" "$1" > "$3" 2>&1
}
figures() {
	sed -nE 's/^vivt-emu: sweep .* arrival [0-9]+: ([0-9]+) instructions in the visit, ([0-9]+) runs \([a-z ]+\), ([0-9]+) IRQs taken at their instruction, ([0-9]+) held while IRQs were masked, ([0-9]+) on a masked line, ([0-9]+) failing runs, ([0-9]+) reports, .*/\1 \2 \3 \4 \5 \6 \7/p' "$1"
}
# first_failure LOG: the first failing run's line.
first_failure() {
	grep -m1 -E '^vivt-emu: (sweep: (IRQ before|step|the reference)|error)' "$1" | cut -c11-330
}

declare -A baseline image_of
t_steps=0 t_runs=0 t_fail=0 t_reports=0
start=$(date +%s)
for spec in "${sweeps[@]}"; do
	IFS='|' read -r image range vars what <<< "$spec"
	label="$range${vars:+ [$vars]}"
	key="$range|$vars"
	baseline[$key]=failed
	image_of[$key]=$image
	log=$out/$(echo "$label" | tr ' =[]#' '_-__-').log
	if ! elf_for "$image" "$vars"; then
		tap_result "not ok" "vivt sweep: $label: the image does not build (see $out/build-${O#build/}.log)"
		continue
	fi
	sweep_run "$elf" "$range" "$log"
	rc=$?
	read -r steps runs taken held masked failing reports <<< "$(figures "$log")"
	if [ -z "${steps:-}" ]; then
		tap_result "not ok" "vivt sweep: $label: no summary (exit $rc): $(tail -1 "$log" | cut -c1-250)"
		continue
	fi
	t_steps=$((t_steps + steps)) t_runs=$((t_runs + runs + 1)) t_fail=$((t_fail + failing))
	t_reports=$((t_reports + reports))
	fig="$steps instructions, $runs runs, $taken IRQs taken at their instruction, $held held while masked"
	if [ "$rc" -eq 0 ] && [ "$failing" -eq 0 ] && [ "$taken" -gt 0 ] && [ "$masked" -eq 0 ]; then
		baseline[$key]=passed
		tap_result ok "vivt sweep: $label ($what): $fig, every run passes"
	elif [ "$failing" -eq 0 ]; then
		tap_result "not ok" "vivt sweep: $label: exit $rc, $fig, $masked on a masked line: the IRQs must be taken"
	else
		tap_result "not ok" "vivt sweep: $label ($what): $failing of $runs runs fail, $reports reports: $(first_failure "$log") (logs: $log.runs)"
	fi
done
tap_summary "vivt sweep instructions swept" "$t_steps"
tap_summary "vivt sweep runs" "$t_runs"
tap_summary "vivt sweep failing runs" "$t_fail"
tap_summary "vivt sweep reports" "$t_reports"
echo "vivt sweep: $t_runs runs in $(( $(date +%s) - start )) s on $jobs jobs"

# ---- the mutants: each must fail the sweep its line names
if [ "${SWEEP_MUTANTS:-1}" != 0 ]; then
	table=tests/vivt/sweep-mutants.list
	while IFS=$'\x1f' read -r name func change killer what; do
		if [ "$name" = '!' ]; then tap_result "not ok" "sweep mutants: $func"; continue; fi
		res=
		if ! [[ $killer =~ ^sweep\ ([A-Za-z_0-9#]+)(\ (.*))?$ ]]; then
			res="error: \"$killer\" is not \"sweep RANGE [MAKE VARS]\""
		else
			range=${BASH_REMATCH[1]} vars=${BASH_REMATCH[3]}
			m=$out/mutant-$name.elf
			if [ "${baseline[$range|$vars]:-}" != passed ]; then
				res="error: the unmutated sweep of $range${vars:+ [$vars]} does not pass, so a kill would prove nothing"
			elif ! elf_for "${image_of[$range|$vars]}" "$vars"; then
				res="error: the image does not build"
			elif ! addrs=$(mutant_elf "$elf" "$m" "$func" "$change" 2>&1); then
				res="error $addrs (the code moved on: update the table)"
			else
				timeout -k 5 120 "$emu" --input /dev/null "$m" > "$out/mutant-$name.plain.log" 2>&1
				prc=$?
				plain="the plain run passes"
				[ "$prc" -ne 0 ] && plain="the plain run fails too (exit $prc)"
				sweep_run "$m" "$range" "$out/mutant-$name.log"
				read -r steps runs taken held masked failing reports <<< "$(figures "$out/mutant-$name.log")"
				if [ "${failing:-0}" -gt 0 ]; then
					res="killed by the sweep of $range (patched $addrs): $failing of $runs runs fail, $reports reports, first: $(first_failure "$out/mutant-$name.log"); $plain"
				else
					res="survived the sweep of $range (patched $addrs; ${runs:-no} runs); $plain"
				fi
			fi
		fi
		mutant_verdict "sweep mutant" "$name ($func: ${change% => *}, $what)" "$killer" "$res"
	done <<< "$(mutants_read "$table")"
	mutants_summary "vivt sweep mutants"
fi
tap_close
exit
}
