#!/usr/bin/env bash
# The emulator's own tests: every program here commits exactly one
# violation (its header says which report to expect) and must get that
# report, and only that kind, with exit status 10; built with -DFIXED it is
# the corrected twin and must exit 0 with no report.  TAP on stdout.
#
#   tools/vivt-emu/tests/arm/run.sh VIVT-EMU OUTDIR
set -uo pipefail

emu=${1:?usage: run.sh VIVT-EMU OUTDIR}
out=${2:?usage: run.sh VIVT-EMU OUTDIR}
dir=$(dirname "$0")
cc=${CROSS:-arm-none-eabi-}gcc
[ -x "$emu" ] || { echo "run.sh: no emulator at $emu" >&2; exit 2; }
mkdir -p "$out" || exit 2

n=0
failed=0
result() {	# result OK|FAIL NAME [WHY]
	n=$((n + 1))
	if [ "$1" = OK ]; then
		echo "ok $n - vivt own test: $2"
	else
		failed=$((failed + 1))
		echo "not ok $n - vivt own test: $2"
		echo "#   $3"
	fi
}

srcs=("$dir"/*.S)
echo "1..$((2 * ${#srcs[@]}))"
for src in "${srcs[@]}"; do
	name=$(basename "$src" .S)
	kind=$(sed -n 's/^.*Expect: \(.*\)\. \*\/$/\1/p' "$src")
	for variant in violation fixed; do
		elf=$out/$name-$variant.elf
		log=$out/$name-$variant.log
		flags=()
		[ "$variant" = fixed ] && flags=(-DFIXED)
		if [ -z "$kind" ]; then
			result FAIL "$name ($variant)" "no 'Expect: <report kind>.' line in $src"
			continue
		fi
		if ! "$cc" -g -mcpu=arm926ej-s -marm -nostdlib -nostartfiles -Wl,-Ttext=0x10000 \
			-Wl,--no-warn-rwx-segments -I"$dir" "${flags[@]}" -o "$elf" "$src" 2>"$log"; then
			result FAIL "$name ($variant)" "does not build: $(head -n 3 "$log" | tr '\n' ' ')"
			continue
		fi
		timeout 30 "$emu" --max-insns 1000000 "$elf" </dev/null >"$log" 2>&1
		rc=$?
		want=$(grep -cF "REPORT $kind:" "$log")
		other=$(grep 'REPORT ' "$log" | grep -vcF "REPORT $kind:")
		if [ "$variant" = violation ]; then
			if [ "$rc" -eq 10 ] && [ "$want" -ge 1 ] && [ "$other" -eq 0 ]; then
				result OK "$name: reported as $kind"
			else
				result FAIL "$name: reported as $kind" \
					"exit $rc, $want '$kind' and $other other reports (see $log)"
			fi
		elif [ "$rc" -eq 0 ] && [ "$want" -eq 0 ] && [ "$other" -eq 0 ]; then
			result OK "$name corrected twin runs clean"
		else
			result FAIL "$name corrected twin runs clean" \
				"exit $rc, $((want + other)) reports (see $log)"
		fi
	done
done
[ "$failed" -eq 0 ]
