#!/usr/bin/env bash
# make check-mutants: the mutants of the cache/TLB maintenance in the
# tables beside it (firmware/mm/mutants.list, arch/arm/include/asm/mutants.list):
# each deletes one maintenance call on the map, unmap, context-switch and
# pkmap-flush paths (and inside the ARM hooks and set_pte_ext that those
# paths call) or one trigger of the deferred flush. One at a time, the host
# tests (the mm suites and the host scheduler suite, in default (deferred),
# KMAP_DEFER=0 (eager) and DEBUG_HIGHMEM builds, one after the other until
# a kill) run with that mutant, and a test *about that step* must fail: the
# table's "killed by" column names the tests whose subject it is (or the
# model violation it prevents). A kill only by other tests (an artefact of
# IRQ injection, say) does not count. A maintenance call no table line
# plants a mutant in is a failure too, so a new call cannot go untested.
#
#   tests/host/mutants.sh [TAP-FILE]
#   MUTANTS_ALL=1 tests/host/mutants.sh   every suite of every variant for each
#                                    mutant (slow; build/host/mutants/mutant-N.failures
#                                    lists all that failed)
#
# A call is deleted by guarding it with an if that is false while the
# mutant is on, so the mutant still compiles warning-free and a kill can
# only come from a test. Every mutant is planted at once, each behind its
# own switch (tests/host/mutant_switch.c), in a private copy of the tree
# under build/host/mutants; each variant is built once, and a mutant costs
# only its test runs. The working tree is never touched.
set -uo pipefail

tap=${1:-/dev/stdout}
root=$(cd "$(dirname "$0")/../.." && pwd)
. "$root/tests/lib/tap.sh"
. "$root/tests/lib/mutants.sh"
tables="firmware/mm/mutants.list arch/arm/include/asm/mutants.list"
work=$root/build/host/mutants
src=$work/tree
# Where the maintenance calls are, and which calls are maintenance.
files="firmware/mm/*.c arch/arm/include/asm/highmem.h arch/arm/include/asm/pgtable.h"
calls='flush_other_slot|flush_page_in|kmap_local_flush_page|arch_kmap_local_post_map|arch_kmap_local_pre_unmap|arch_kmap_local_post_unmap|flush_cache_kmaps|flush_tlb_kmaps|__cpuc_flush_dcache_area|__cpuc_flush_kern_all|cpu_dcache_clean_area|cpu_dcache_inv_area|cpu_drain_write_buffer|local_flush_tlb_kernel_page|local_flush_tlb_all|dmac_clean_range|dmac_inv_range|dmac_flush_range|maint'
variants="eager debug default"
# The deferred scheme's flushes exist in its build only: try that one first for them.
defer_first="default eager debug"
make_args=(-s -j2 HOST_SAN= HOST_OUT=build/host/mut SCHED_HOST_OUT=build/host/mut-sched)

mkdir -p "$work"
mutants_tree "$src"
tests=$(cd "$src" && ls tests/host/test_*.c | sed 's|.*/||; s|\.c$||')
# The sweep last: it forks a run per interrupt point (about 1,500), so a
# mutant that a cheaper suite kills should never pay for it first.
tests="$(echo $tests | sed 's/\btest_irq_sweep\b//') test_irq_sweep"

# Every maintenance call site: file:line.
sites=$(cd "$src" && grep -nE "^[[:space:]]*($calls)\(.*\);[[:space:]]*\\\\?$" $files | cut -d: -f1,2)

# Build suite $2 (mm or sched) of variant $1.
build() {
	local t targets=()
	if [ "$2" = sched ]; then
		targets=(build/host/mut-sched/$1/test_sched_real)
	else
		for t in $tests; do
			targets+=(build/host/mut/$1/bin/$t)
		done
	fi
	make -C "$src" "${make_args[@]}" "${targets[@]}" > "$work/build.log" 2>&1
}

# Run suite $2 of variant $1; print each failure as "variant binary: case (first
# model violation)"; a crash counts. With a pattern $3 (and not MUTANTS_ALL),
# stop after the first binary that has a failure matching it: the verdict
# is made, and the remaining binaries would only cost time.
failures() {
	local v=$1 want=${3:-} t bin log rc why list=$tests f l hit
	[ "$2" = sched ] && list=test_sched_real
	[ -n "$want" ] && list=$(killers_first "$v" "$want" $list)
	for t in $list; do
		if [ "$2" = sched ]; then
			bin=build/host/mut-sched/$v/test_sched_real
		else
			bin=build/host/mut/$v/bin/$t
		fi
		log=$work/run-$v-$t.log
		{ (cd "$src" && CMOCKA_MESSAGE_OUTPUT=TAP timeout 60 "$bin" > "$log" 2>&1); } 2>/dev/null
		rc=$?
		# The log read with builtins: a mutant costs its test runs, not a grep per question.
		tap_log_read "$log"
		why="" f="" hit=0
		for l in "${TAP_LOG[@]}"; do
			if [[ -z $why && $l =~ MODEL\ VIOLATION:\ ([^:]*) ]]; then
				why=${BASH_REMATCH[1]}
			fi
		done
		for l in "${TAP_LOG[@]}"; do
			[[ $l =~ ^not\ ok\ [0-9]*\ -\ ([^ ]*) ]] || continue
			l="$v $t: ${BASH_REMATCH[1]}${why:+ ($why)}"
			f+="${f:+$'\n'}$l"
			[ -n "$want" ] && [[ $l =~ $want ]] && hit=1
		done
		if [ -z "$f" ] && [ "$rc" -ne 0 ]; then
			f="$v $t: exited with status $rc${why:+ ($why)}"
			[ -n "$want" ] && [[ $f =~ $want ]] && hit=1
		fi
		[ -n "$f" ] && echo "$f"
		if [ "$hit" = 1 ] && [ -z "${MUTANTS_ALL:-}" ]; then
			return
		fi
	done
}

# The case names of each binary, from its clean run ("VARIANT BINARY" ->
# "BINARY: case" lines), so a mutant runs first the binaries whose cases its
# killer regex names: a kill is then usually the first binary run.
declare -A cases
# killers_first VARIANT WANT BINARY...: the binaries, those with a case WANT
# matches first (the rest keep their order: a kill through a model
# violation's text is still found).
killers_first() {
	local v=$1 want=$2 t first=() rest=()
	shift 2
	for t in "$@"; do
		if has_case "$v $t" "$want"; then
			first+=("$t")
		else
			rest+=("$t")
		fi
	done
	echo "${first[@]}" "${rest[@]}"
}
# has_killer VARIANT SUITE WANT: does a case of that suite's binaries match WANT?
has_killer() {
	local t list=$tests
	[ "$2" = sched ] && list=test_sched_real
	for t in $list; do
		has_case "$1 $t" "$3" && return 0
	done
	return 1
}
# has_case "VARIANT BINARY" WANT: does a case of that binary's clean run match WANT?
has_case() {
	local l
	[ -n "${cases[$1]:-}" ] || return 1
	while IFS= read -r l; do
		[[ $l =~ $2 ]] && return 0
	done <<< "${cases[$1]}"
	return 1
}

tap_open "$tap"
: > "$tap"
TAP_WHAT=check-mutants

# Each table line's mutant: its line in the pristine copy (a call site no
# line names fails here), then every one planted behind its switch.
rows=$(for t in $tables; do mutants_read "$root/$t"; done)
planted="" n=0 lines=() files=()
while IFS=$'\x1f' read -r name file change killer what; do
	if [ "$name" = '!' ]; then tap_result "not ok" "mutants: $file"; continue; fi
	n=$((n + 1))
	if ! line=$(mutant_call_line "$src/$file" "$change"); then
		tap_result "not ok" "mutant $name ($file: $change): $line"
		continue
	fi
	if [[ " $planted " == *" $file:$line "* ]]; then
		tap_result "not ok" "mutant $name ($file: $change): another line of the tables plants at $file:$line"
		continue
	fi
	planted+="$file:$line " lines[n]=$line files[n]=$file
done <<< "$rows"
for site in $sites; do
	[[ " $planted " == *" $site "* ]] && continue
	tap_result "not ok" "mutants: the maintenance call at $site ($(sed -n "${site#*:}p" "$src/${site%%:*}" | xargs)) has no mutant in $tables"
done
for n in "${!lines[@]}"; do
	cp -n "$src/${files[n]}" "$src/${files[n]}.orig"
	mutant_guard "$src/${files[n]}" "${lines[n]}" "if (!({ extern int lokal_mutant; lokal_mutant == $n; }))"
done
cp "$root/tests/host/mutant_switch.c" "$src/firmware/lib/mutant_switch.c"

# built VARIANT SUITE: true once that build of the planted tree exists and
# passes with no mutant on (built on first use: most mutants die in the
# first variant tried).
declare -A ready
built() {
	local f
	[ -n "${ready[$1 $2]:-}" ] && return
	if ! build "$1" "$2"; then
		tap_result "not ok" "mutants: the planted tree does not build (see $work/build.log)"
		exit 1
	fi
	local t list
	# The IRQ sweep every 16th point: check-host sweeps these sources at
	# every point; here the run shows the guards change nothing, and a full
	# sweep per variant would be a third of this phase's processes.
	f=$(SWEEP_STRIDE=16 failures "$1" "$2")
	if [ -n "$f" ]; then
		tap_result "not ok" "mutants: the planted tree fails with no mutant on: $(echo "$f" | head -3 | paste -sd';')"
		exit 1
	fi
	list=$tests
	[ "$2" = sched ] && list=test_sched_real
	for t in $list; do
		cases[$1 $t]=$(sed -n "s/^ok [0-9]* - \([^ ]*\).*/$1 $t: \1/p" "$work/run-$1-$t.log")
	done
	ready[$1 $2]=1
}

total=$(grep -c . <<< "$rows")
n=0
while IFS=$'\x1f' read -r name file change killer what; do
	[ "$name" = '!' ] && continue
	n=$((n + 1))
	line=${lines[n]:-}
	[ -n "$line" ] || continue
	code=$(sed -n "${line}p" "$src/$file.orig" | sed 's/^[[:space:]]*//; s/[[:space:]]*\\$//')
	call=${code%%(*}
	want=${killer#host: }
	order=$variants
	case $file:$call in
	firmware/mm/kmap_defer.c:*|*:kmap_local_flush_page) order=$defer_first ;;
	esac
	# Variant by variant, mm suites then the scheduler suite, until a test about this step fails.
	all= first=
	for v in $order; do
		suites="mm sched"
		# The suite holding a case the killer names first (both are built by then).
		built "$v" mm; built "$v" sched
		[ -n "$want" ] && ! has_killer "$v" mm "$want" && has_killer "$v" sched "$want" && suites="sched mm"
		for suite in $suites; do
			built "$v" $suite
			f=$(LOKAL_MUTANT=$n failures "$v" $suite "$want")
			all+=${f:+$f$'\n'}
			[ -z "$first" ] && first=$(echo "$f" | grep -m1 -E "${want:-^$}")
			[ -n "$first" ] && [ -z "${MUTANTS_ALL:-}" ] && break 2
		done
	done
	echo "$all" > "$work/mutant-$n.failures"
	if [ -z "$(echo "$all" | grep .)" ]; then
		res="survived"
	elif [ -z "$first" ]; then
		res="only tests not about it failed: $(echo "$all" | grep . | head -2 | paste -sd';')"
	else
		res="killed by host[${first%% *}] ${first#* } ($(echo "$all" | grep -c .) failing test(s) in the binaries run, $(echo "$all" | grep -c ' test_sched_real: ') of them in the scheduler suite)"
	fi
	mutant_verdict mutant "$n/$total $file:$line: $code" "$killer" "$res"
done <<< "$rows"
mutants_summary mutants
tap_close
