#!/usr/bin/env bash
# Run the target test images listed in a manifest under QEMU.
#   tools/run-target-tests.sh MANIFEST TAP_OUT
#
# Manifest lines:  image | exit status | output regex | make vars | stdin
#   - make vars starting with QEMU_ go to the QEMU run, not to make:
#     QEMU_ICOUNT=1 runs the image under -icount, so timing checks depend
#     on the firmware alone and not on how loaded the host is;
#   - status 0 images are ktest images: their own TAP lines are collected
#     (and the regexes, if any, must match too);
#   - other images prove a fatal diagnostic: each regex (grep -E; several
#     are separated by ' && ') must match a console line and the exit
#     status must be the one given.
# Each run gets TARGET_TIMEOUT seconds (default 60); logs stay in
# $CHECK_OUT/target/<variant>/<image>.log (CHECK_OUT: default build/check;
# created if missing, as on a fresh clone). Exits non-zero if any case
# failed, any image did not build, or the manifest listed nothing.
set -uo pipefail
if [ $# -ne 2 ] || [ ! -r "$1" ]; then
	echo "usage: tools/run-target-tests.sh MANIFEST TAP_OUT (${1:-no manifest}: not readable)" >&2
	exit 2
fi
manifest=$1
tap=$2
timeout=${TARGET_TIMEOUT:-60}
n=0
failures=0
out=${CHECK_OUT:-build/check}
mkdir -p "$out"

emit() {
	n=$((n + 1))
	[ "$1" = ok ] || failures=$((failures + 1))
	echo "$1 $n - $2" >> "$tap"
	[ "$tap" = /dev/stdout ] || echo "$1 $n - $2"
}

# The regexes (joined by ' && ') that match no line of the log.
missing_regexes() {
	local re missing=""
	while IFS= read -r re; do
		re=$(echo "$re" | sed 's/^ *//; s/ *$//')
		tr -d '\r' < "$2" | grep -Eq -- "$re" || missing="$missing /$re/"
	done < <(echo "$1" | sed 's/ && /\n/g')
	echo "$missing"
}

. "$(dirname "$0")/../tests/target/manifest.sh"
declare -A built
while IFS='|' read -r image status regex vars input; do
	manifest_line || continue
	O=build/versatilepb-$variant
	if [ -z "${built[$variant]:-}" ]; then
		if ! make --no-print-directory O="$O" $vars target-images > "$out/build-$variant.log" 2>&1; then
			emit "not ok" "build of target images ($variant) failed: see $out/build-$variant.log"
			built[$variant]=failed
			continue
		fi
		built[$variant]=ok
	fi
	[ "${built[$variant]}" = ok ] || { emit "not ok" "$image ($variant): not built"; continue; }

	if [ ! -f "$O/tests/$image.elf" ]; then
		emit "not ok" "$image${vars:+ [$vars]}: no image $O/tests/$image.elf (is there a tests/target/$image.c?)"
		continue
	fi
	logdir=$out/target/$variant
	mkdir -p "$logdir"
	log=$logdir/$image${run_env:+-$(echo "$run_env" | tr ' =' '_-')}.log
	ram=$(echo "$vars" | sed -n 's/.*RAM_MB=\([0-9]*\).*/\1/p')
	# Input goes in once the console is up: initialising the PL011 resets its FIFO.
	{ [ -n "$input" ] && sleep 1; printf '%b' "$input"; } | env RAM_MB=${ram:-128} QEMU_TIMEOUT=$timeout \
		$run_env tools/qemu-run.sh "$O/tests/$image.elf" > "$log" 2>&1
	rc=$?
	label="$image${vars:+ [$vars]}${run_env:+ ($run_env)}"
	if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
		emit "not ok" "$label: timed out after ${timeout}s (log $log)"
		continue
	fi
	if [ "$status" = 0 ]; then
		cases=$(grep -E '^(not )?ok [0-9]+ - ' "$log" | tr -d '\r')
		plan=$(grep -E '^1\.\.[0-9]+' "$log" | tr -d '\r' | head -1 | cut -d. -f3)
		while IFS= read -r line; do
			[ -z "$line" ] && continue
			res=${line%% [0-9]* - *}
			name=${line#* - }
			emit "$res" "$label: $name"
		done <<< "$cases"
		got=$(printf '%s\n' "$cases" | grep -c . || true)
		if [ "$rc" -ne 0 ] && ! grep -q '^not ok' <<< "$cases"; then
			emit "not ok" "$label: exited with status $rc (log $log)"
			tail -n 15 "$log" | sed 's/^/    | /'
		elif [ "$got" -eq 0 ]; then
			emit "not ok" "$label: printed no test case (log $log)"
		elif [ -n "$plan" ] && [ "$got" -ne "$plan" ]; then
			emit "not ok" "$label: planned $plan cases, ran $got (log $log)"
		fi
		if [ -n "$regex" ]; then
			missing=$(missing_regexes "$regex" "$log")
			if [ -n "$missing" ]; then emit "not ok" "$label: output lacks$missing (log $log)"
			else emit "ok" "$label: output as expected"; fi
		fi
	else
		if [ "$rc" -ne "$status" ]; then
			emit "not ok" "$label: exit status $rc, expected $status (log $log)"
			tail -n 15 "$log" | sed 's/^/    | /'
		else
			missing=$(missing_regexes "$regex" "$log")
			if [ -n "$missing" ]; then
				emit "not ok" "$label: output lacks$missing (log $log)"
				tail -n 15 "$log" | sed 's/^/    | /'
			else
				emit "ok" "$label: diagnosed as expected"
			fi
		fi
	fi
done < "$manifest"
if [ "$n" -eq 0 ]; then
	echo "run-target-tests: $manifest lists no test image" >&2
	exit 1
fi
[ "$failures" -eq 0 ]
