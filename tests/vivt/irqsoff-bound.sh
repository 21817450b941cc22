# Sourced by check-vivt.sh and check-vivt-at91.sh (after tests/lib/tap.sh):
#   irqsoff_bound PREFIX BOUND RUNS DIR SUMMARY
# prints the interrupts-off figures of the runs (irqsoff-summary.py), adds
# them to SUMMARY, and writes one TAP line: ok when every run's longest
# thread-context window is within BOUND instructions, otherwise one
# failing line per run above it, in every configuration, debug builds included.
irqsoff_bound() {
	local prefix=$1 bound=$2 runs=$3 dir=$4 summary=$5 rc over r
	python3 tools/vivt-emu/scripts/irqsoff-summary.py "$prefix" "$bound" "$runs" "$dir" | tee -a "$summary"
	rc=${PIPESTATUS[0]}
	over=$(sed -n "s/^$prefix: over the bound: //p" "$summary")
	if [ "$rc" = 0 ]; then
		tap_result ok "$prefix: every thread-context IRQs-off window within $bound instructions"
	elif [ -n "$over" ]; then
		while IFS= read -r r; do tap_result "not ok" "$prefix: IRQs-off window above $bound instructions in $r"; done <<< "$over"
	else
		tap_result "not ok" "$prefix: irqsoff-summary.py failed (exit $rc)"
	fi
}
