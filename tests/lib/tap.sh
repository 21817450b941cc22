# The test runners' shared library (sourced by bash): one TAP writer, the
# plan check, expected-line matching, time limits and parallel runs.
#
# A runner does:
#   . tests/lib/tap.sh
#   tap_open "$TAP"             # the stream's file (default stdout)
#   tap_result ok "name"        # or "not ok", with optional detail lines
#   ...
#   tap_close                   # false if a result failed or none was written
# tap_close's rule that a runner which reported nothing fails is what keeps a
# crash or an empty list from passing.

# The source tree, for the libraries and the runners they start. Found
# with builtins only: every runner and every image run sources this file,
# and a process costs milliseconds on a small VM.
tap_here=${BASH_SOURCE[0]%/*}
[ "$tap_here" != "${BASH_SOURCE[0]}" ] || tap_here=.
tap_pwd=$PWD
CDPATH='' cd -- "$tap_here/../.." && LOKAL_ROOT=$PWD && CDPATH='' cd -- "$tap_pwd"
export LOKAL_ROOT

# tap_open FILE: results go to FILE (and to stdout as well when FILE is a
# file). Numbering starts after $TAP_N0, so a runner that continues another's
# stream (the mutants after the image runs) keeps one sequence.
tap_open() {
	TAP_FILE=${1:-/dev/stdout}
	TAP_N=${TAP_N0:-0}
	TAP_START=$TAP_N
	TAP_FAILED=0
}

# tap_result ok|"not ok" NAME [DETAIL...]: one numbered result; each DETAIL
# becomes a "# " line under a failure.
tap_result() {
	local res=$1 name=$2 line d
	shift 2
	[ "$res" = ok ] || { res="not ok"; TAP_FAILED=$((TAP_FAILED + 1)); }
	TAP_N=$((TAP_N + 1))
	line="$res $TAP_N - $name"
	if [ "$res" != ok ]; then
		for d in "$@"; do line+=$'\n'"# $d"; done
	fi
	tap_write "$line"
}

# tap_write TEXT: one or more lines to the stream and the terminal. Stdout
# is written through fd 1 only: reopening /dev/stdout when it is a file
# would write at another offset than fd 1 and overwrite its lines.
tap_write() {
	[ "$TAP_FILE" = /dev/stdout ] || printf '%s\n' "$1" >> "$TAP_FILE"
	printf '%s\n' "$1"
}

# tap_note TEXT: a "# TEXT" comment line in the stream (no result).
tap_note() { tap_write "# $1"; }

# tap_summary KEY VALUE: one of the runner's headline figures ("asm mutants
# killed" "39/39"): printed as "KEY: VALUE", and kept as a "KEY=VALUE" line
# in the stream's summary file, which `make check` reads instead of the
# runner's printed text: $TAP_SUMMARY if set (a runner whose results another
# relays with tap_from), else TAP_FILE.summary (none when the stream is
# stdout). KEY has no '='; a KEY ending in "mutants killed" has the value K/N.
tap_summary() {
	local file=${TAP_SUMMARY:-$TAP_FILE.summary}
	printf '%s: %s\n' "$1" "$2"
	[ -z "${TAP_SUMMARY:-}" ] && [ "$TAP_FILE" = /dev/stdout ] || printf '%s=%s\n' "$1" "$2" >> "$file"
}

# tap_relay [PREFIX]: every "ok [N] - x" / "not ok [N] - x" line on stdin
# becomes a result named "PREFIXx", and the "# " lines right under a failure
# stay under it; other lines pass through to stdout.
# Feed it by redirection (tap_relay < <(cmd)), not a pipe: a pipe runs it in
# a subshell whose count is lost.
tap_relay() {
	local line res=ok
	while IFS= read -r line; do
		case $line in
		"ok "*|"not ok "*)
			res=ok; [[ $line == not* ]] && res="not ok"
			tap_result "$res" "${1:-}${line#* - }";;
		"# "*) if [ "$res" = ok ]; then printf '%s\n' "$line"; else tap_write "$line"; fi;;
		*) res=ok; printf '%s\n' "$line";;
		esac
	done
}

# tap_from NAME CMD...: CMD's "ok [N] - x" / "not ok [N] - x" lines as
# results (renumbered, named "$TAP_PREFIX x"); a CMD that reported none,
# reported other than its plan line ("1..N") says, or failed with no failing
# result, is one failure more, NAME's.
tap_from() {
	local name=$1 out rc why
	shift
	out=$("$@" 2>&1)
	rc=$?
	tap_relay "${TAP_PREFIX:-}" <<< "$out"
	why=$(tap_plan_text "$out")
	if ! grep -qE '^(not )?ok ' <<< "$out"; then
		tap_result "not ok" "$name: reported no result (status $rc)"
	elif [ -n "$why" ]; then
		tap_result "not ok" "$name: $why"
	elif [ "$rc" -ne 0 ] && ! grep -q '^not ok ' <<< "$out"; then
		tap_result "not ok" "$name: exit status $rc"
	fi
}

# tap_check STATUS NAME [DETAIL...]: a result that passes when STATUS (a
# test's exit status, as in `[ ... ]; tap_check $? NAME`) is 0.
tap_check() {
	local rc=$1
	shift
	if [ "$rc" -eq 0 ]; then tap_result ok "$1"; else tap_result "not ok" "$@"; fi
}

# tap_plan_out COUNT: the plan line "1..COUNT" (before the results).
tap_plan_out() { tap_write "1..$1"; }

# tap_close: true when every result passed and there was at least one.
# With TAP_COUNT_FILE set, the last result's number goes there, for a
# parent runner that numbers on after this one (its TAP may be a pipe or
# a terminal it cannot read back).
tap_close() {
	if [ "$TAP_N" -eq "$TAP_START" ]; then
		tap_result "not ok" "${TAP_WHAT:-this runner} reported no result"
	fi
	[ -z "${TAP_COUNT_FILE:-}" ] || echo "$TAP_N" > "$TAP_COUNT_FILE"
	[ "$TAP_FAILED" -eq 0 ]
}

# tap_log_read LOG: LOG's lines, carriage returns dropped, into the array
# TAP_LOG (read once: the functions below look at it without a process).
tap_log_read() {
	TAP_LOG=()
	[ -r "$1" ] && mapfile -t TAP_LOG < "$1"
	TAP_LOG=("${TAP_LOG[@]//$'\r'/}")
}

# tap_cases LOG: the image's own TAP case lines in LOG (carriage returns dropped).
tap_cases() {
	local l re='^(not )?ok [0-9]+ - '
	tap_log_read "$1"
	for l in "${TAP_LOG[@]}"; do
		[[ $l =~ $re ]] && printf '%s\n' "$l"
	done
	return 0
}

# tap_plan LOG: says what is wrong with LOG's plan ("planned 5 cases, ran 4"),
# nothing when the cases match the first plan line or there is no plan.
# The text is also left in TAP_OUT, for a caller that would rather not fork.
tap_plan() {
	tap_log_read "$1"
	tap_plan_of_log
}

# tap_plan_text TEXT: the same for TAP text.
tap_plan_text() {
	mapfile -t TAP_LOG <<< "$1"
	TAP_LOG=("${TAP_LOG[@]//$'\r'/}")
	tap_plan_of_log
}

# The plan check of tap_plan and tap_plan_text, over the lines in TAP_LOG.
tap_plan_of_log() {
	local l plan="" got=0 re_case='^(not )?ok [0-9]+ - ' re_plan='^1\.\.([0-9]+)'
	for l in "${TAP_LOG[@]}"; do
		if [[ $l =~ $re_case ]]; then
			got=$((got + 1))
		elif [ -z "$plan" ] && [[ $l =~ $re_plan ]]; then
			plan=${BASH_REMATCH[1]}
		fi
	done
	TAP_OUT=""
	[ -z "$plan" ] || [ "$got" -eq "$plan" ] || TAP_OUT="planned $plan cases, ran $got"
	[ -z "$TAP_OUT" ] || echo "$TAP_OUT"
}

# tap_missing LOG 'RE && RE ...': the regexes (extended, as grep -E reads
# them) no line of LOG matches, as " /RE/" each; nothing when all match.
# The text is also left in TAP_OUT.
tap_missing() {
	local rest=$2 re l found
	tap_log_read "$1"
	TAP_OUT=""
	while [ -n "$rest" ]; do
		re=${rest%% && *}
		if [ "$re" = "$rest" ]; then rest=""; else rest=${rest#* && }; fi
		re=${re#"${re%%[! ]*}"}
		re=${re%"${re##*[! ]}"}
		[ -z "$re" ] && continue
		found=0
		for l in "${TAP_LOG[@]}"; do
			[[ $l =~ $re ]] && { found=1; break; }
		done
		[ "$found" = 1 ] || TAP_OUT+=" /$re/"
	done
	printf '%s' "$TAP_OUT"
}

# tap_timeout SECS CMD...: CMD under a time limit; status 124 when the limit
# stopped it (whether by TERM or, 5 s later, KILL).
tap_timeout() {
	local rc
	timeout -k 5 "$@"
	rc=$?
	[ "$rc" -eq 137 ] && rc=124
	return "$rc"
}

# tap_parallel RUNS DIR JOBS FUNC: FUNC INDEX LINE for each line of RUNS,
# JOBS at a time (FUNC is exported, and writes DIR/INDEX.result: TAP lines
# without numbers); then each run's results in order, with the tail of a
# failing run's DIR/INDEX.log. A run that left no result is a failure.
tap_parallel() {
	local runs=$1 dir=$2 jobs=$3 func=$4 count k line
	count=$(grep -c '' "$runs")
	k=0
	while IFS= read -r line; do
		k=$((k + 1))
		printf '%s\0%s\0' "$k" "$line"
	done < "$runs" | xargs -0 -n 2 -P "$jobs" bash -c "$func"' "$1" "$2"' _
	for ((k = 1; k <= count; k++)); do
		if [ -s "$dir/$k.result" ]; then
			tap_relay < "$dir/$k.result"
			grep -q '^not ok' "$dir/$k.result" && [ -f "$dir/$k.log" ] &&
				tail -n 12 "$dir/$k.log" | sed 's/^/    | /'
		else
			tap_result "not ok" "run $k of $runs left no result"
		fi
	done
}
