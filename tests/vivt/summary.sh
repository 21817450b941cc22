# The figures check-vivt.sh and check-vivt-board.sh take from their runs
# (they source this after tests/lib/tap.sh), read from files written for
# scripts (the runs' stats files, lokal-latency's JSON report), never from
# printed reports.
#
# irqsoff_bound PREFIX BOUND PBOUND HBOUND RUNS DIR SUMMARY
# prints the interrupts-off and preemption-off figures of the runs
# (irqsoff-summary.py), adds them to SUMMARY, and writes one TAP line: ok
# when every run's longest thread-context IRQs-off window is within BOUND
# instructions, its longest kernel preemption-off window within PBOUND and
# the kernel's part of its longest handler window within HBOUND,
# otherwise one failing line per window above its bound, in every
# configuration, debug builds included.
irqsoff_bound() {
	local prefix=$1 bound=$2 pbound=$3 hbound=$4 runs=$5 dir=$6 summary=$7 rc over r
	rm -f "$dir/irqsoff-over.txt"
	python3 tools/vivt-emu/scripts/irqsoff-summary.py "$prefix" "$bound" "$runs" "$dir" \
		--preempt-bound "$pbound" --handler-kernel-bound "$hbound" --over "$dir/irqsoff-over.txt" | tee -a "$summary"
	rc=${PIPESTATUS[0]}
	over=$(cat "$dir/irqsoff-over.txt" 2>/dev/null)
	if [ "$rc" = 0 ]; then
		tap_result ok "$prefix: every thread-context IRQs-off window within $bound instructions, every kernel preemption-off window within $pbound, every handler window's kernel part within $hbound"
	elif [ -n "$over" ]; then
		while IFS= read -r r; do tap_result "not ok" "$prefix: $r"; done <<< "$over"
	else
		tap_result "not ok" "$prefix: irqsoff-summary.py failed (exit $rc)"
	fi
}

# emu_speed PREFIX DIR RUNS: the emulator's speed over the RUNS runs whose
# logs are in DIR, from the stats files run-image has each write
# (LOG.stats: insns, wall_s, cpu_s), as the summary figure PREFIX.
emu_speed() {
	local line
	line=$(awk -F= '$1 == "insns" { i += $2 } $1 == "wall_s" { w += $2 } $1 == "cpu_s" { c += $2 }
		END { if (w > 0 && c > 0) printf "%d runs, %.2f G instructions in %.1f s of emulation: %.1f M instr/s (%.1f M per CPU second)",
			n, i / 1e9, w, i / w / 1e6, i / c / 1e6 }' n="$3" "$2"/*.log.stats 2>/dev/null)
	tap_summary "$1" "${line:-no run wrote a stats file}"
}

# switch_pulses VCD JSON TEXT: the switch-marker pulses lokal-latency counts
# in VCD, from its JSON report (written to JSON; its printed report goes to
# TEXT); nothing when it counted none. Its status is lokal-latency's.
switch_pulses() {
	local rc
	rm -f "$2"
	tools/latency/lokal-latency "$1" --json "$2" > "$3" 2>&1
	rc=$?
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["inputs"][0]["switch"]["count"])' \
		"$2" 2>/dev/null
	return "$rc"
}
