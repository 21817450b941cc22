#!/usr/bin/env bash
# `make check`: run every test phase, then print one summary line.
#
# Each phase is a make target `check-<phase>` that writes TAP lines
# ("ok N - name" / "not ok N - name") to build/check/<phase>.tap. A phase
# whose command fails without reporting a failing case counts as one failure,
# so a crash or a timeout can never pass silently.
set -uo pipefail

phases=(${CHECK_PHASES:-config host host-sched target vivt vivt-at91 boards openocd tools shell mutants})
outdir=build/check
rm -rf "$outdir"
mkdir -p "$outdir"

passed=0
failed=0
for phase in "${phases[@]}"; do
	echo "=== check-$phase"
	log="$outdir/$phase.log"
	tap="$outdir/$phase.tap"
	: > "$tap"
	make --no-print-directory "check-$phase" TAP="$PWD/$tap" > "$log" 2>&1
	rc=$?
	p=$(grep -c '^ok ' "$tap" || true)
	f=$(grep -c '^not ok ' "$tap" || true)
	grep '^not ok ' "$tap" | sed 's/^/    /'
	grep -hE '^(asm |at91 )?mutants killed|^vivt: [0-9]+ runs|^board ' "$log" | sed 's/^/    /'
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		echo "    not ok - check-$phase exited with status $rc (see $log)"
		tail -n 20 "$log" | sed 's/^/    | /'
		f=1
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		echo "    not ok - check-$phase ran no test (see $log)"
		f=1
	fi
	echo "    $p passed, $f failed"
	passed=$((passed + p))
	failed=$((failed + f))
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
