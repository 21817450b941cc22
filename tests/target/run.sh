#!/usr/bin/env bash
# make check-target's image runs: every line of a list (tests/target/tests.list)
# that QEMU runs, on every board QEMU models (a BOARD_QEMU line in its
# board.mk; tools/lib/board.sh: qemu_boards), each line built in its
# configuration and run by tests/run-image, one TAP result per case of a
# ktest image and one per diagnostic. Results of a board other than the
# default one are named "BOARD: ...".
#   tests/target/run.sh LIST TAP_OUT
# TARGET_BOARDS="b1 b2" runs those boards only (default: qemu_boards).
# Each run gets TARGET_TIMEOUT seconds (default 60); logs stay in
# $CHECK_OUT/target/<build folder>/ (CHECK_OUT: default build/check; created
# if missing, as on a fresh clone). Exits non-zero if any case failed, any
# image did not build, or the list named nothing to run.
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh
. tests/lib/images.sh
if [ $# -ne 2 ] || [ ! -r "$1" ]; then
	echo "usage: tests/target/run.sh LIST TAP_OUT (${1:-no list}: not readable)" >&2
	exit 2
fi
list=$1
out=${CHECK_OUT:-build/check}
TAP_WHAT="$list under QEMU"
tap_open "$2"
for machine in ${TARGET_BOARDS:-$(qemu_boards)}; do
	prefix=""
	[ "$machine" = "$(default_board)" ] || prefix="$machine: "
	lines=$(list_lines "$list" qemu "$machine")
	while IFS='|' read -r image status regex vars input opt; do
		list_line_ok "$prefix" || continue
		label="$image${vars:+ [$vars]}${opt:+ ($opt)}"
		# shellcheck disable=SC2046
		if ! build_images "$machine" "$vars" "$out" $(config_images "$lines" "$vars"); then
			tap_result "not ok" "$prefix$label: build of $O failed: see $out/build-${O#build/}.log"
			continue
		fi
		log=$out/target/${O#build/}/$image${opt:+-$opt}${input:+-$(printf '%s' "$input" | tr -c 'a-z0-9' _)}.log
		# Virtual time is instruction count, so where the tick lands in the
		# firmware, and the verdict, does not depend on the host's load. A
		# line that types on the console runs in real time: the runner types
		# when it sees the console, a moment the guest's own clock cannot wait
		# for under -icount (it sleeps through its time-outs at once).
		icount=""
		{ [ -z "$input" ] || [ "$opt" = icount ]; } && icount=--icount
		tap_relay "$prefix" < <(tests/run-image --runner qemu --machine "$machine" --config "$vars" "$image" --cases \
			--status "$status" --expect "$regex" --input "$input" --label "$label" --log "$log" \
			--timeout "${TARGET_TIMEOUT:-60}" $icount)
	done <<< "$lines"
done
tap_close
