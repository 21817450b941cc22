#!/usr/bin/env bash
# Show that the model's unit tests can fail: the mutants of
# tools/vivt-emu/memsys/mutants.list each remove or bend one rule of the
# memory-system model (the mutation engine's source back end,
# tests/lib/mutants.sh, on a private copy of the tree); tests/test_memsys.c,
# relinked against the mutant, must fail, and among its failing cases must
# be the one the table names.  One TAP result per mutant and the summary
# figure "model mutants killed" K/N; exit status 1 unless every mutant is
# killed.
#
#   tools/vivt-emu/tests/model-mutants.sh OUTDIR
# Environment: TAP (default stdout), TAP_N0 (TAP numbers start after it),
# TAP_SUMMARY (where the summary figure goes; tests/lib/tap.sh).
set -uo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
. "$root/tests/lib/tap.sh"
. "$root/tests/lib/mutants.sh"
[ $# -eq 1 ] || { echo "usage: $0 OUTDIR" >&2; exit 2; }
out=$1
table=tools/vivt-emu/memsys/mutants.list
tree=$out/tree
tap_open "${TAP:-/dev/stdout}"
TAP_WHAT="model mutants"
# One result per line of the table: the plan.
rows=$(mutants_read "$root/$table")
tap_plan_out "$(grep -c . <<< "$rows")"
mkdir -p "$out/obj"
mutants_tree "$tree"

# The model library and its unit test, as memsys.mk builds them (without
# the sanitizers: a mutant needs only to fail a test).
sources=$(cd "$tree" && echo tools/vivt-emu/memsys/*.c tools/vivt-emu/tests/test_memsys.c)
# compile FILE OBJ: FILE of the copy (mutated or not) into OBJ.
compile() {
	gcc -std=gnu11 -O0 -w -I"$tree/tools/vivt-emu" -I"$tree/tests/lib" -c "$tree/$1" -o "$2"
}
declare -A obj
for f in $sources; do
	obj[$f]=$out/obj/${f//\//_}.o
	if ! compile "$f" "${obj[$f]}" 2> "$out/build.log"; then
		tap_result "not ok" "model mutants: $f does not build ($out/build.log)"
		exit 1
	fi
done

n=0
while IFS=$'\x1f' read -r name file change killer what; do
	if [ "$name" = '!' ]; then tap_result "not ok" "model mutants: $file"; continue; fi
	n=$((n + 1))
	case " $sources " in
	*" $file "*) ;;
	*) mutant_verdict "model mutant" "$name ($what)" "$killer" "error: $file is not a file of the model"; continue;;
	esac
	if ! why=$(mutant_source "$tree" "$file" "$change"); then
		mutant_verdict "model mutant" "$name ($what)" "$killer" "error: $why"
		continue
	fi
	exe=$out/m$n objs=()
	for f in $sources; do [ "$f" = "$file" ] || objs+=("${obj[$f]}"); done
	if ! compile "$file" "$exe.o" 2> "$exe.build.log" || ! gcc -o "$exe" "$exe.o" "${objs[@]}" 2>> "$exe.build.log"; then
		res="error: does not build ($exe.build.log)"
	else
		timeout -k 5 120 "$exe" > "$exe.log" 2>&1
		rc=$?
		want=${killer#test_memsys: }
		if ! grep -q '^not ok ' "$exe.log"; then
			res="survived: every unit test passes (exit $rc)"
		elif grep '^not ok ' "$exe.log" | grep -cF -- " - vivt model: $want" > /dev/null; then
			res="killed by test_memsys: $want"
		else
			res="only tests not about it failed: $(grep -m2 '^not ok ' "$exe.log" | sed 's/^not ok [0-9]* - //' | paste -sd';')"
		fi
	fi
	mutant_restore "$tree" "$file"
	mutant_verdict "model mutant" "$name ($what)" "$killer" "$res"
done <<< "$rows"
mutants_summary "model mutants"
tap_close
