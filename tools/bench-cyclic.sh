#!/usr/bin/env bash
# make bench, the cyclic part (docs/latency.md): timer-to-handler and
# timer-to-thread latency under the full load, in both kmap schemes,
#  - under QEMU -icount: CYCLIC_BENCH_PERIODS periods (default 10^6), one
#    instruction per ns, the firmware's own figures (counter resolution);
#  - on vivt-emu: CYCLIC_BENCH_EMU_PERIODS (default 10^5), the pins'
#    figures, exact instructions, with the firmware's beside them;
#  - on vivt-emu, each load part alone (the deferred scheme, 10^4 periods):
#    what each part adds to the maxima.
# Writes OUT/cyclic/*.{log,json,png} and OUT/cyclic.json, which
# bench-report.py turns into the cyclic_* targets of results.json.
#   tools/bench-cyclic.sh [OUT]       (default build/bench)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-build/bench}/cyclic
periods=${CYCLIC_BENCH_PERIODS:-1000000}
emu_periods=${CYCLIC_BENCH_EMU_PERIODS:-100000}
part_periods=${CYCLIC_BENCH_PART_PERIODS:-10000}
period_us=20
mkdir -p "$out"
make --no-print-directory vivt-emu > "$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }

# One line per run: NAME|make variables|qemu or vivt. Every part's bit, as cyclic.h numbers them.
runs=$out/runs.txt
: > "$runs"
for scheme in eager:0 defer:1; do
	echo "qemu-${scheme%%:*}|KMAP_DEFER=${scheme#*:} CYCLIC_PERIODS=$periods|qemu" >> "$runs"
	echo "vivt-${scheme%%:*}|KMAP_DEFER=${scheme#*:} CYCLIC_PERIODS=$emu_periods|vivt" >> "$runs"
done
# The parts in their bit order: cyclic.h's enum (LOAD_LOCAL = bit 0, ...),
# whose lower-case names are the ones the firmware prints (load.c).
parts=$(sed -n 's/^[[:space:]]*LOAD_\([A-Z]*\),.*/\1/p' firmware/apps/cyclic/cyclic.h | tr 'A-Z' 'a-z')
[ -n "$parts" ] || { echo "bench: no LOAD_ parts found in firmware/apps/cyclic/cyclic.h"; exit 1; }
bit=0
for part in $parts; do
	echo "part-$part|KMAP_DEFER=1 CYCLIC_PERIODS=$part_periods CYCLIC_LOAD=$((1 << bit))|vivt" >> "$runs"
	bit=$((bit + 1))
done
echo "part-none|KMAP_DEFER=1 CYCLIC_PERIODS=$part_periods CYCLIC_LOAD=0|vivt" >> "$runs"

# Builds one after another (each is make -j2), runs two at a time.
while IFS='|' read -r name vars how; do
	# shellcheck disable=SC2086
	make --no-print-directory -j2 O="build/bench-cyclic/$name" $vars CYCLIC_PERIOD_US=$period_us APP=cyclic \
		"build/bench-cyclic/$name/cyclic.elf" >> "$out/build.log" 2>&1 \
		|| { tail -20 "$out/build.log"; echo "bench: cyclic build $name failed"; exit 1; }
done < "$runs"
echo "bench: cyclic, $(wc -l < "$runs") runs (QEMU: $periods periods per scheme; vivt-emu: $emu_periods, parts alone $part_periods)"
run_one() {
	IFS='|' read -r name vars how <<< "$1"
	if QEMU_TIMEOUT=7200 tools/cyclic.sh "$how" "build/bench-cyclic/$name/cyclic.elf" "$2/$name" \
		> "$2/$name.log" 2>&1; then
		echo "bench: cyclic $name done"
	else
		echo "bench: cyclic $name failed (see $2/$name.log)"; tail -5 "$2/$name.log"; return 1
	fi
}
export -f run_one
export CYCLIC_OUT=$out
tr '\n' '\0' < "$runs" | xargs -0 -n 1 -P 2 bash -c 'run_one "$1" "$CYCLIC_OUT"' _
python3 - "$out" "$runs" <<'PY'
import json, os, sys
out, runs = sys.argv[1], sys.argv[2]
doc = {}
for line in open(runs):
    name, variables, how = line.rstrip("\n").split("|")
    j = json.load(open(os.path.join(out, name, "cyclic-%s.json" % how)))
    doc[name] = dict(j, how=how, variables=variables)
json.dump(doc, open(os.path.join(out, "..", "cyclic.json"), "w"), indent=2)
PY
