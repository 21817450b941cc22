#!/usr/bin/env bash
# Run the host test binaries of every variant, the compile-time rejection
# checks and a short fuzz run; write one TAP stream to $1.
#   run-tests.sh TAP HOST_OUT "VARIANTS" "TESTS" FUZZ_RUNS "FUZZ_VARIANTS"
# Each fuzz variant runs FUZZ_RUNS sequences from seed 1 and an empty
# corpus (plus the seeds), so the work does not depend on the host's speed or on earlier runs.
set -uo pipefail

tap=$1 out=$2 variants=$3 tests=$4 fuzz_runs=$5 fuzz_variants=${6:-fuzz}
# ASAN_OPTIONS: tests/host/host.mk's HOST_ASAN_OPTIONS, given by make check-host.
export ASAN_OPTIONS=${ASAN_OPTIONS:?run by make check-host, which sets ASAN_OPTIONS}
export UBSAN_OPTIONS=print_stacktrace=1
. "$(dirname "$0")/../lib/tap.sh"
: > "$tap"
tap_open "$tap"
emit() {        # emit ok|not-ok "name"
	if [ "$1" = ok ]; then tap_result ok "$2"; else tap_result "not ok" "$2"; fi
}

for v in $variants; do
	mkdir -p "$out/$v/log"
	for t in $tests; do
		log="$out/$v/log/$t.log"
		# A hung test must fail, not stop make check: 300 s is 10x the slowest.
		CMOCKA_MESSAGE_OUTPUT=TAP timeout -k 5 300 "$out/$v/bin/$t" > "$log" 2>&1
		rc=$?
		# One plan per cmocka group (before the scheduler, then in its main thread).
		planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$log" | awk '{ n += $1 } END { if (NR) print n }')
		seen=0 bad=0
		while IFS= read -r line; do
			name=${line#* - }
			seen=$((seen + 1))
			case $line in
			ok\ *) emit ok "host[$v] $t: $name" ;;
			*) emit not-ok "host[$v] $t: $name (see $log)"; bad=$((bad + 1)) ;;
			esac
		done < <(grep -E '^(not )?ok [0-9]+ - ' "$log")
		if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
			emit not-ok "host[$v] $t exited with status $rc (see $log)"
		elif [ -z "$planned" ] || [ "$seen" -ne "$planned" ]; then
			emit not-ok "host[$v] $t: ran $seen of ${planned:-?} planned tests (see $log)"
		fi
		echo "host[$v] $t: $seen run, status $rc"
	done
done

# Compile-time rejection of a struct page * given to the unmap calls.
inc="-I$out/default/include -Iarch/sim/include -Iarch/arm/include -Ifirmware/include"
for unmap in kunmap_local kunmap_atomic; do
	src=tests/host/compile_fail/kunmap_page.c
	log="$out/default/log/compile_fail_$unmap.log"
	if ! gcc -std=gnu11 -Wall -Wextra -Werror -fsyntax-only $inc -DUNMAP=$unmap -DCONTROL \
		"$src" > "$log.control" 2>&1; then
		emit not-ok "compile-time check: control build with $unmap(addr) fails (see $log.control)"
	elif gcc -std=gnu11 -fsyntax-only $inc -DUNMAP=$unmap "$src" > "$log" 2>&1; then
		emit not-ok "compile-time check: $unmap(struct page *) compiled"
	elif grep -q 'pass the address returned by the map call' "$log"; then
		emit ok "compile-time check: $unmap(struct page *) is rejected"
	else
		emit not-ok "compile-time check: $unmap(struct page *) failed for another reason (see $log)"
	fi
done

# An application may use the scheduler's own names: no public header (every
# lokal/*.h but the *-internal.h ones) makes a macro or a clash of them.
src="$out/default/log/app_names.c"
{
	for h in firmware/include/lokal/*.h; do
		case $h in *-internal.h) ;; *) echo "#include <lokal/${h##*/}>" ;; esac
	done
	echo 'int runqueue = 1, switch_window, running, stats, threads;'
	echo 'int app_names(void) { return runqueue + switch_window + running + stats + threads; }'
} > "$src"
if gcc -std=gnu11 -Wall -Wextra -Werror -fsyntax-only $inc "$src" > "$src.log" 2>&1; then
	emit ok "compile-time check: an application may name its variables runqueue, switch_window, running, stats, threads"
else
	emit not-ok "compile-time check: the public headers take a name from applications (see $src.log)"
fi

# A short fuzz run: random map/unmap/kmap/write/read/switch sequences.
for fv in $fuzz_variants; do
	[ "$fuzz_runs" -gt 0 ] || break
	fz="$out/$fv"
	rm -rf "$fz/corpus-check"
	mkdir -p "$fz/corpus-check"
	# Crash artefacts go beside the build, never into the working tree.
	"$fz/fuzz_kmap" -runs="$fuzz_runs" -seed=1 -print_final_stats=1 -artifact_prefix="$fz/" \
		"$fz/corpus-check" tests/host/fuzz/seeds > "$fz/check.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$fz/check.log")
	if [ "$rc" -eq 0 ] && [ "${runs:-0}" -ge "$fuzz_runs" ]; then
		emit ok "$fv: ${runs} random sequences (seed 1), no violation, mismatch or crash"
	else
		emit not-ok "$fv: status $rc after ${runs:-?} of $fuzz_runs sequences (see $fz/check.log)"
	fi
	echo "$fv: ${runs:-?} sequences, status $rc"
done

# The IRQ sweep's counts (test_irq_sweep prints one line per scenario and build).
sweep=$(cat "$out"/*/log/test_irq_sweep.log 2>/dev/null |
	sed -n 's/^sweep: [a-z_]*: \([0-9]*\) points, \([0-9]*\) runs, \([0-9]*\) reports.*/\1 \2 \3/p' |
	awk '{ p += $1; r += $2; f += $3 } END { if (NR) printf "%d points, %d runs, %d failing runs", p, r, f }')
known=$(cat "$out"/*/log/test_irq_sweep.log 2>/dev/null | grep -c '^sweep: .*: known defect, found')
[ -n "$sweep" ] && tap_summary "host IRQ sweep" "$sweep ($known of them known defects, one run each)"

echo "check-host: $((TAP_N - TAP_FAILED)) passed, $TAP_FAILED failed"
tap_close
