#!/usr/bin/env bash
# vivt-emu --stats-at-lines (what `make bench` reads per figure), tested on
# one target image: the console output and exit status do not change; each
# matching console line gets exactly one counter line; the deltas add up to
# no more than the run's totals (--stats) and show cache and CP15 work; a bad
# regex or --no-model is refused early.  Prints one "ok - ..." or
# "not ok - ..." line per check.
#   tests/stats-lines.sh EMULATOR IMAGE.elf WORKDIR
set -uo pipefail
emu=$1 elf=$2 dir=$3
re='^ok [0-9]+ '
mkdir -p "$dir"
res() { if [ "$1" = 0 ]; then echo "ok - vivt --stats-at-lines: $2"; else echo "not ok - vivt --stats-at-lines: $2${3:+: $3}"; fi; }

"$emu" --stats --input /dev/null "$elf" > "$dir/plain.out" 2> "$dir/plain.err"
rc0=$?
"$emu" --stats --stats-at-lines "$re" --input /dev/null "$elf" > "$dir/lines.out" 2> "$dir/lines.err"
rc1=$?
cmp -s "$dir/plain.out" "$dir/lines.out" && [ "$rc0" = "$rc1" ]
res $? "console output and exit status unchanged (exit $rc0/$rc1)" "see $dir"

want=$(tr -d '\r' < "$dir/lines.out" | grep -cE "$re")
got=$(grep -c '^vivt-emu: stats-at-line ' "$dir/lines.err")
[ "$want" -gt 0 ] && [ "$want" = "$got" ]
res $? "one counter line per matching console line ($got for $want)"

# Sum every field of the counter lines; compare with the end-of-run totals.
check=$(awk '
/^vivt-emu: stats-at-line / {
	for (f = 3; f <= NF && $f != "|"; f++) { split($f, kv, "="); sum[kv[1]] += kv[2] }
	if ($0 ~ / dfills=[1-9]/ && $0 ~ / cp15=[1-9]/) busy++
}
/^vivt-emu: .* instructions in / { for (f = 1; f <= NF; f++) if ($f == "instructions") tot["insns"] = $(f-1) }
/^vivt-emu: model: / {
	line = $0; gsub(/[;,]/, "", line); n = split(line, w, " ")
	for (f = 1; f < n; f++) {
		if (w[f] == "fills" && w[f-1] == "line" && w[f-2] == "D") tot["dfills"] = w[f+1]
		if (w[f] == "write-backs") tot["dwritebacks"] = w[f+1]
		if (w[f] == "ops" && w[f-1] == "CP15") tot["cp15"] = w[f+1]
		if (w[f] == "walks") tot["walks"] = w[f+1]
	}
}
END {
	bad = ""
	for (k in tot) if (sum[k] > tot[k] + 0) bad = bad " " k "=" sum[k] ">" tot[k]
	if (length(tot) < 5) bad = bad " totals not found"
	printf "%s|%d\n", bad, busy
}' "$dir/lines.err")
[ -z "${check%|*}" ]
res $? "deltas add up to no more than the run's totals" "${check%|*}"
[ "${check#*|}" -gt 0 ]
res $? "some interval shows D line fills and CP15 operations (${check#*|} of $got)"

timeout 10 "$emu" --stats-at-lines '(' "$elf" > /dev/null 2> "$dir/badre.err" < /dev/null
rc=$?
[ "$rc" = 1 ] && grep -q -- '--stats-at-lines' "$dir/badre.err"
res $? "a bad regex is refused with a message (exit $rc)"
timeout 10 "$emu" --no-model --stats-at-lines 'x' "$elf" > /dev/null 2> "$dir/nomodel.err" < /dev/null
rc=$?
[ "$rc" = 1 ] && grep -q 'needs the memory-system model' "$dir/nomodel.err"
res $? "--no-model is refused with a message (exit $rc)"
