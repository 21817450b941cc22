#!/usr/bin/env bash
# `make check`: run every test phase, then print one summary line.
#
# Each phase is a make target `check-<phase>` that writes TAP lines
# ("ok N - name" / "not ok N - name") to build/check/<phase>.tap, and its
# headline figures (mutants killed K/N, runs) as KEY=VALUE lines to
# build/check/<phase>.tap.summary (tests/lib/tap.sh: tap_summary). A phase
# whose command fails without reporting a failing case counts as one failure,
# and so does one whose summary says a mutant survived while it reported no
# failure, so a crash or a timeout can never pass silently.
#
# The phases and their lanes are listed in tests/phases.txt. The phases run
# in two lanes at once (the machine has two cores). Phases in one lane run
# in order, and no two lanes write the same build directory: lane 1 is
# host-side (build/host*, build/check-config), then the AT91 board on the
# emulator (build/at91sam9g20-ek*); lane 2 builds and runs the versatilepb
# images (build/versatilepb*, build/vivt-emu) and, in check-target and
# check-boards, the AST2400's (build/ast2400-palmetto*), then the shell's scripted
# sessions (in versatilepb folders too, so in this lane) and the tool
# tests. The one thing both lanes use, the emulator, is built before they
# start. The split
# balances the lanes' CPU time; check-vivt reuses check-target's images, so
# it follows it. CHECK_JOBS=1 runs every phase in one lane; CHECK_PHASES="a b"
# runs just those, in order.
set -uo pipefail

cd "$(dirname "$0")/.."
. tools/lib/board.sh
# vivt_boards LANE: the phases vivt-BOARD stands for in LANE: one per board
# the emulator has a machine of that name for, except the default board
# (check-vivt's own); a board QEMU runs too goes to lane 2, whose
# check-target has built its images, the others to lane 1.
vivt_boards() {
	local b default
	default=$(default_board)
	for b in $(emulator_boards); do
		[ "$b" = "$default" ] && continue
		if board_has_qemu "$b"; then [ "$1" = 2 ] || continue; else [ "$1" = 1 ] || continue; fi
		printf 'vivt-%s ' "$b"
	done
}
lane() {
	local phase lanes
	while IFS='|' read -r phase lanes _; do
		phase=${phase//[[:space:]]/}; lanes=${lanes//[[:space:]]/}
		[[ -z $phase || $phase == \#* || ",$lanes," != *",$1,"* ]] && continue
		if [ "$phase" = vivt-BOARD ]; then vivt_boards "$1"; else printf '%s ' "$phase"; fi
	done < tests/phases.txt
}
lane1=${CHECK_LANE1:-$(lane 1)}
lane2=${CHECK_LANE2:-$(lane 2)}
if [ -n "${CHECK_PHASES:-}" ]; then
	lanes=("$CHECK_PHASES")
elif [ "${CHECK_JOBS:-$(nproc)}" -le 1 ]; then
	lanes=("$lane1 $lane2")
else
	lanes=("$lane1" "$lane2")
fi

outdir=build/check
rm -rf "$outdir"
mkdir -p "$outdir"

# run_phase PHASE: run it, write "passed failed" to $outdir/PHASE.count and
# print its block in one write, so blocks from two lanes never interleave.
run_phase() {
	local phase=$1 log="$outdir/$1.log" tap="$outdir/$1.tap" rc p f t0 block key value
	: > "$tap"
	rm -f "$tap.summary"
	t0=$(date +%s)
	make --no-print-directory "check-$phase" TAP="$PWD/$tap" > "$log" 2>&1
	rc=$?
	p=$(grep -c '^ok ' "$tap" || true)
	f=$(grep -c '^not ok ' "$tap" || true)
	block="=== check-$phase ($(( $(date +%s) - t0 )) s)"$'\n'
	block+=$(grep '^not ok ' "$tap" | sed 's/^/    /')$'\n'
	while IFS='=' read -r key value; do
		block+="    $key: $value"$'\n'
		if [[ $key == *"mutants killed" ]] && { ! [[ $value =~ ^([0-9]+)/([0-9]+)$ ]] ||
			[ "${BASH_REMATCH[1]}" != "${BASH_REMATCH[2]}" ]; } && [ "$f" -eq 0 ]; then
			block+="    not ok - check-$phase: $key $value, yet no failing result"$'\n'
			f=1
		fi
	done < <(cat "$tap.summary" 2>/dev/null)
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		block+="    not ok - check-$phase exited with status $rc (see $log)"$'\n'
		block+=$(tail -n 20 "$log" | sed 's/^/    | /')$'\n'
		f=1
	fi
	if [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		block+="    not ok - check-$phase ran no test (see $log)"$'\n'
		f=1
	fi
	block+="    $p passed, $f failed"
	printf '%s\n' "$(printf '%s' "$block" | grep -v '^$')"
	echo "$p $f" > "$outdir/$phase.count"
}

# The emulator both lanes run (a failed build fails the phases that need it).
if [ "${#lanes[@]}" -gt 1 ]; then
	make --no-print-directory -j2 vivt-emu > "$outdir/vivt-emu-build.log" 2>&1
fi

pids=()
for lane in "${lanes[@]}"; do
	( for phase in $lane; do run_phase "$phase"; done ) &
	pids+=($!)
done
wait "${pids[@]}"

passed=0
failed=0
for lane in "${lanes[@]}"; do
	for phase in $lane; do
		if read -r p f < "$outdir/$phase.count"; then
			passed=$((passed + p)); failed=$((failed + f))
		else
			echo "not ok - check-$phase left no result"; failed=$((failed + 1))
		fi
	done
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
