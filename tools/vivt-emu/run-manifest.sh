# Sourced by check-vivt.sh and check-vivt-at91.sh: the part of running a
# manifest of emulator runs that both share.
#
# run_manifest RUNS DIR JOBS LABEL: hand each line of RUNS, with its 1-based
# number, to the caller's exported run_one, JOBS at a time; then emit (the
# caller's TAP writer) each run's DIR/N.result in manifest order, with the
# tail of a failing run's log. A run that left no result is a failure, so a
# crashed or killed run cannot pass.
run_manifest() {
	local runs=$1 dir=$2 jobs=$3 label=$4 count k r line
	count=$(wc -l < "$runs")
	k=0
	while IFS= read -r line; do
		k=$((k + 1))
		printf '%s\0%s\0' "$k" "$line"
	done < "$runs" | xargs -0 -n 2 -P "$jobs" bash -c 'run_one "$1" "$2"' _
	for ((k = 1; k <= count; k++)); do
		if [ -f "$dir/$k.result" ]; then
			r=$(cat "$dir/$k.result")
			emit "${r%% - *}" "${r#* - }"
			[[ "$r" == not* ]] && tail -n 12 "$dir/$k.log" | sed 's/^/    | /'
		else
			emit "not ok" "$label: run $k left no result"
		fi
	done
}
