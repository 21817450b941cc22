#!/usr/bin/env bash
# vivt-emu --stats-at-lines (what `make bench` reads per figure), tested on
# one target image: the console output and exit status do not change; each
# matching console line gets exactly one counter line; the deltas add up to
# no more than the run's totals (--stats-file) and show cache and CP15 work;
# a bad regex or --no-model is refused early; so is a --stats-file that
# cannot be written.  TAP on stdout
# (tests/lib/tap.sh).
#   tests/stats-lines.sh EMULATOR IMAGE.elf WORKDIR
set -uo pipefail
emu=$1 elf=$2 dir=$3
re='^ok [0-9]+ '
mkdir -p "$dir"
. "$(dirname "$0")/../../../tests/lib/tap.sh"
tap_open

"$emu" --stats --input /dev/null "$elf" > "$dir/plain.out" 2> "$dir/plain.err"
rc0=$?
"$emu" --stats --stats-at-lines "$re" --stats-file "$dir/lines.stats" --input /dev/null "$elf" \
	> "$dir/lines.out" 2> "$dir/lines.err"
rc1=$?
cmp -s "$dir/plain.out" "$dir/lines.out" && [ "$rc0" = "$rc1" ]
tap_check $? "vivt --stats-at-lines: console output and exit status unchanged (exit $rc0/$rc1)" "see $dir"

want=$(tr -d '\r' < "$dir/lines.out" | grep -cE "$re")
got=$(grep -c '^vivt-emu: stats-at-line ' "$dir/lines.err")
[ "$want" -gt 0 ] && [ "$want" = "$got" ]
tap_check $? "vivt --stats-at-lines: one counter line per matching console line ($got for $want)"

# Sum every field of the counter lines; compare with the run's totals
# (--stats-file: key=value lines).
check=$(awk '
FILENAME ~ /\.stats$/ { split($0, kv, "="); tot[kv[1]] = kv[2]; next }
/^vivt-emu: stats-at-line / {
	for (f = 3; f <= NF && $f != "|"; f++) { split($f, kv, "="); sum[kv[1]] += kv[2]; seen[kv[1]] = 1 }
	if ($0 ~ / dfills=[1-9]/ && $0 ~ / cp15=[1-9]/) busy++
}
END {
	bad = ""; n = 0
	for (k in seen) { n++; if (!(k in tot)) bad = bad " " k ": no total"; else if (sum[k] > tot[k] + 0) bad = bad " " k "=" sum[k] ">" tot[k] }
	if (n < 10) bad = bad " only " n " counters"
	printf "%s|%d\n", bad, busy
}' "$dir/lines.stats" "$dir/lines.err")
[ -z "${check%|*}" ]
tap_check $? "vivt --stats-at-lines: deltas add up to no more than the run's totals" "${check%|*}"
[ "${check#*|}" -gt 0 ]
tap_check $? "vivt --stats-at-lines: some interval shows D line fills and CP15 operations (${check#*|} of $got)"

# The pipeline's own cycles (cpu/pipeline.c) are counted: every run has
# taken branches and multi-register pushes, and none stalls, on average,
# anywhere near four cycles per instruction.
pipe=$(sed -n 's/^pipe=//p' "$dir/lines.stats") insns=$(sed -n 's/^insns=//p' "$dir/lines.stats")
[ -n "$pipe" ] && [ -n "$insns" ] && [ "$pipe" -gt $(( insns / 10 )) ] && [ "$pipe" -lt $(( insns * 4 )) ]
tap_check $? "vivt --stats-file: the pipeline's cycles are counted (pipe=$pipe for insns=$insns)"

tap_timeout 10 "$emu" --stats-at-lines '(' "$elf" > /dev/null 2> "$dir/badre.err" < /dev/null
rc=$?
[ "$rc" = 1 ] && grep -q -- '--stats-at-lines' "$dir/badre.err"
tap_check $? "vivt --stats-at-lines: a bad regex is refused with a message (exit $rc)"
tap_timeout 10 "$emu" --no-model --stats-at-lines 'x' "$elf" > /dev/null 2> "$dir/nomodel.err" < /dev/null
rc=$?
[ "$rc" = 1 ] && grep -q 'needs the memory-system model' "$dir/nomodel.err"
tap_check $? "vivt --stats-at-lines: --no-model is refused with a message (exit $rc)"
tap_timeout 60 "$emu" --no-model --stats-file "$dir/no-such-dir/x.stats" --input /dev/null "$elf" \
	> /dev/null 2> "$dir/badfile.err"
rc=$?
[ "$rc" = 1 ] && grep -q "no-such-dir/x.stats: No such file" "$dir/badfile.err"
tap_check $? "vivt --stats-file: a file that cannot be written fails the run with a message (exit $rc)"
tap_close
