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
. "$dir/../../../../tests/lib/tap.sh"
cc=${CROSS:-arm-none-eabi-}gcc
[ -x "$emu" ] || { echo "run.sh: no emulator at $emu" >&2; exit 2; }
mkdir -p "$out" || exit 2

tap_open
srcs=("$dir"/*.S)
tap_plan_out $((2 * ${#srcs[@]}))
for src in "${srcs[@]}"; do
	name=$(basename "$src" .S)
	kind=$(sed -n 's/^.*Expect: \(.*\)\. \*\/$/\1/p' "$src")
	for variant in violation fixed; do
		elf=$out/$name-$variant.elf
		log=$out/$name-$variant.log
		flags=()
		[ "$variant" = fixed ] && flags=(-DFIXED)
		if [ -z "$kind" ]; then
			tap_result "not ok" "vivt own test: $name ($variant)" "no 'Expect: <report kind>.' line in $src"
			continue
		fi
		if ! "$cc" -g -mcpu=arm926ej-s -marm -nostdlib -nostartfiles -Wl,-Ttext=0x10000 \
			-Wl,--no-warn-rwx-segments -I"$dir" "${flags[@]}" -o "$elf" "$src" 2>"$log"; then
			tap_result "not ok" "vivt own test: $name ($variant)" "does not build: $(head -n 3 "$log" | tr '\n' ' ')"
			continue
		fi
		tap_timeout 30 "$emu" --max-insns 1000000 "$elf" </dev/null >"$log" 2>&1
		rc=$?
		want=$(grep -cF "REPORT $kind:" "$log")
		other=$(grep 'REPORT ' "$log" | grep -vcF "REPORT $kind:")
		if [ "$variant" = violation ]; then
			[ "$rc" -eq 10 ] && [ "$want" -ge 1 ] && [ "$other" -eq 0 ]
			tap_check $? "vivt own test: $name: reported as $kind" \
				"exit $rc, $want '$kind' and $other other reports (see $log)"
		else
			[ "$rc" -eq 0 ] && [ "$want" -eq 0 ] && [ "$other" -eq 0 ]
			tap_check $? "vivt own test: $name corrected twin runs clean" \
				"exit $rc, $((want + other)) reports (see $log)"
		fi
	done
done
tap_close
