#!/usr/bin/env bash
# `make check-config`: bad configurations stop make before anything is
# compiled, with the variable and its limit named; good edge configurations
# are accepted; the demo adapts to the memory there is; QEMU runs are
# bounded and say so; the target runner fails loudly on a fresh tree.
# TAP lines go to $1 (and stdout); exits non-zero on any failure.
#   tests/config/check-config.sh TAP_OUT
set -uo pipefail
tap=${1:-/dev/stdout}
out=build/check-config
rm -rf "$out"
mkdir -p "$out"
. tests/lib/tap.sh
. tests/lib/images.sh
tap_open "$tap"

mk() { make --no-print-directory "$@"; }

# refused "NAME" "EXPECTED TEXT" VAR=VALUE...: `make all` stops at once with
# one error naming the variable and the text, having compiled nothing.
refused() {
	local name=$1 want=$2; shift 2
	local dir log
	dir=$out/bad-$TAP_N
	log=$out/bad-$TAP_N.log
	if mk O="$dir" "$@" all > "$log" 2>&1; then
		tap_result "not ok" "$name: refused" "make succeeded; see $log"
	elif ! grep -q '\*\*\*.*'"$want" "$log"; then
		tap_result "not ok" "$name: refused" "no make error saying '$want'; see $log"
	elif grep -q '^  \(CC\|AS\|LD\) ' "$log" || [ -e "$dir" ]; then
		tap_result "not ok" "$name: refused" "something was built before the error; see $log"
	else
		tap_result ok "$name: refused: $(grep -o '\*\*\* .*' "$log" | head -1 | cut -c5- | sed "s/  Stop\.$//")"
	fi
}

# accepted "NAME" VAR=VALUE...: the configuration passes the checks. O
# names a folder with no build, so make reads no dependency files.
accepted() {
	local name=$1; shift
	if mk -s O="$out/good" "$@" config-limits > "$out/good-$TAP_N.log" 2>&1; then
		tap_result ok "$name: accepted"
	else
		tap_result "not ok" "$name: accepted" "$(tail -1 "$out/good-$TAP_N.log")"
	fi
}

# Bad values as a user types them, each refused before anything is built.
refused "LOWMEM_MB=300 (more than RAM)" "LOWMEM_MB=300 is out of range: LOWMEM_MB must be 8..128" LOWMEM_MB=300
for v in 0 1 2; do
	refused "LOWMEM_MB=$v (below the minimum)" "LOWMEM_MB=$v is out of range: LOWMEM_MB must be 8\.\." LOWMEM_MB=$v
done
refused "HZ=0" "HZ=0 is out of range: HZ must be 1\.\." HZ=0
refused "RAM_MB=0" "RAM_MB=0 is out of range" RAM_MB=0
refused "RAM_MB=512 (versatilepb holds 256 MiB)" "RAM_MB=512 is out of range: RAM_MB must be 8..256.*256 MiB" RAM_MB=512
refused "LOWMEM_MB=abc" "LOWMEM_MB=abc is not a number" LOWMEM_MB=abc
refused "LOWMEM_MB=032 (C reads octal)" "LOWMEM_MB=032 is not a number" LOWMEM_MB=032
refused "HZ=-100" "HZ=-100 is not a number" HZ=-100
refused "RAM_MB empty" "RAM_MB= is not a number" RAM_MB=
refused "LAST_PKMAP=100 (not a power of two)" "LAST_PKMAP=100 must be a power of two" LAST_PKMAP=100
refused "BOARD=nosuch" "BOARD=nosuch is not a board: choose one of" BOARD=nosuch
refused "O empty (would build into /)" "O= must name one build directory" O=
# O is a directory make owns: /, the source tree, one holding it, a source
# folder, a system directory and one holding other files are refused.
refused "O=/ (would build into /)" "O=/ is the root directory" O=/
refused "O=. (the source tree)" "O=\. is the source tree itself" O=.
refused "O=.. (holds the source tree)" "O=\.\. holds the source tree" O=..
refused "O=firmware (a source folder)" "O=firmware is inside the source tree but not under build/" O=firmware
refused "O=/usr/lokal (a system directory)" "O=/usr/lokal is a system directory" O=/usr/lokal
ext=$(mktemp -d)
mkdir -p "$ext/mine" && echo notes > "$ext/mine/notes.txt"
refused "O=a directory holding other files" "already holds files that are not a Lokal build" O="$ext/mine"
refused "O with a quote" "holds the character '" "O=/tmp/a'b"
# make clean also removes an O outside build/ that holds a build. Its
# recipe runs here without the line removing build/ (the check's own output).
mkdir -p "$ext/o/include/generated" && touch "$ext/o/include/generated/config.h" "$ext/o/lokal.elf"
mk -n O="$ext/o" clean > "$out/clean.log" 2>&1
if grep -qx 'rm -rf build' "$out/clean.log" && grep -v -x 'rm -rf build' "$out/clean.log" | sh &&
   [ ! -e "$ext/o" ] && [ -e "$ext/mine/notes.txt" ]; then
	tap_result ok "make clean O=DIR removes the build in DIR"
else
	tap_result "not ok" "make clean O=DIR removes the build in DIR" "see $out/clean.log"
fi
rm -rf "$ext"

refused "KMAP_DEFER=2" "KMAP_DEFER=2 is out of range: KMAP_DEFER must be 0..1" KMAP_DEFER=2
refused "KMAP_LAZY=1 (retired)" "KMAP_LAZY is gone: .* use KMAP_DEFER=1" KMAP_LAZY=1
refused "KMAP_LAZY=0 (retired)" "KMAP_LAZY is gone" KMAP_LAZY=0

# config.table itself: a malformed row, a missing row and a missing table
# stop make with the table's line or the variable named.
table() {	# table NAME: config.table with the rows on stdin after its own
	cat config.table - > "$out/$1.table"
}
echo 'NEW_VAR any 1 1-100 a range without its dots' | table badrange
refused "config.table: a range that is not MIN..MAX" "badrange.table:[0-9]*: range 1-100 is not MIN\.\.MAX" CONFIG_TABLE="$out/badrange.table"
echo 'HZ at91sam9g20-ek - 8..10000 said twice' | table twice
refused "config.table: a second row for a variable and board" "twice.table:[0-9]*: a second row for HZ on at91sam9g20-ek" CONFIG_TABLE="$out/twice.table"
grep -v '^RAM_MB *versatilepb' config.table > "$out/noram.table"
refused "config.table: no RAM_MB row for the board" "has no row for RAM_MB on versatilepb" CONFIG_TABLE="$out/noram.table"
refused "config.table missing" "no-such.table is missing" CONFIG_TABLE="$out/no-such.table"

# Every numeric variable on every board, just outside and at its limits.
for b in $(ls board/*/board.mk | cut -d/ -f2); do
	if ! mk -s BOARD="$b" config-limits > "$out/limits-$b.txt" 2> "$out/limits-$b.log" ||
	   [ ! -s "$out/limits-$b.txt" ]; then
		tap_result "not ok" "board $b: make config-limits lists its limits" "see $out/limits-$b.log"
		continue
	fi
	while read -r var min max; do
		[ "$var" = LOWMEM_MB ] && extra="RAM_MB=$max" || extra=""
		[ "$var" = RAM_MB ] && low="LOWMEM_MB=$min" || low=""
		if [ "$min" -gt 0 ]; then
			refused "board $b: $var=$((min - 1))" "$var=$((min - 1)) is out of range: $var must be $min\.\.$max on $b" \
				BOARD="$b" $extra "$var=$((min - 1))"
		fi
		refused "board $b: $var=$((max + 1))" "$var=$((max + 1)) .*$var must be" BOARD="$b" $extra "$var=$((max + 1))"
		refused "board $b: $var=x$min" "$var=x$min is not a number" BOARD="$b" $extra "$var=x$min"
		accepted "board $b: $var=$min" BOARD="$b" $extra $low "$var=$min"
		accepted "board $b: $var=$max" BOARD="$b" $extra "$var=$max"
	done < "$out/limits-$b.txt"
done

# A board QEMU cannot run is refused by make run, before building.
for b in $(ls board/*/board.mk | cut -d/ -f2); do
	grep -q '^BOARD_QEMU' "board/$b/board.mk" && continue
	log=$out/run-$b.log
	if mk O="$out/run-$b" BOARD="$b" run > "$log" 2>&1; then
		tap_result "not ok" "make run BOARD=$b (no QEMU model): refused" "it succeeded; see $log"
	elif grep -q "board $b has no QEMU model" "$log" && grep -q "make BOARD=$b run-vivt" "$log" &&
	     ! grep -q '^  \(CC\|LD\) ' "$log"; then
		tap_result ok "make run BOARD=$b (no QEMU model): refused before building"
	else
		tap_result "not ok" "make run BOARD=$b (no QEMU model): refused before building" "see $log"
	fi
done

# make boards names every board folder, with run-vivt for each board the
# emulator models (none for the others) and QEMU only where board.mk gives
# a QEMU model.
mk -s boards > "$out/boards.log" 2>&1
bad=""
for mkf in board/*/board.mk; do
	b=$(basename "$(dirname "$mkf")")
	line=$(grep "^$b " "$out/boards.log")
	[ -n "$line" ] || bad="$bad $b:missing"
	grep -q '^BOARD_QEMU' "$mkf" && want="BOARD=$b run, shell" || want="none"
	# The emulator column: run-vivt where vivt-emu has a machine of that name.
	grep -qs "\.name = \"$b\"" tools/vivt-emu/machine/*.c && emu="BOARD=$b run-vivt" || emu="none"
	case "$line" in *"$want"*"$emu"*"BOARD=$b load"*) ;; *) bad="$bad $b" ;; esac
done
[ -z "$bad" ] && tap_result ok "make boards lists every board and where it runs" ||
	tap_result "not ok" "make boards lists every board and where it runs" "wrong for:$bad; see $out/boards.log"

# make help lists every target a user may call (every .PHONY target but
# the internal FORCE and no-qemu-model), and nothing that is not a target;
# a line for NAME-BOARD stands for make's pattern rule NAME-%.
mk -s help > "$out/help.log" 2>&1
make -pRrq : 2>/dev/null > "$out/make-db.txt"
awk '/^\.PHONY:/ { for (i = 2; i <= NF; i++) print $i } /^[a-z-]+-%:/ { sub(/%:.*/, "BOARD"); print }' \
	"$out/make-db.txt" | sort -u | grep -vx 'FORCE\|no-qemu-model' > "$out/targets.txt"
awk '/^  [a-z]/ { print $1 }' "$out/help.log" | sort -u > "$out/help-targets.txt"
missing=$(comm -23 "$out/targets.txt" "$out/help-targets.txt" | tr '\n' ' ')
extra=$(comm -13 "$out/targets.txt" "$out/help-targets.txt" | tr '\n' ' ')
if [ "$(wc -l < "$out/targets.txt")" -gt 20 ] && [ -z "$missing$extra" ]; then
	tap_result ok "make help lists every target ($(wc -l < "$out/targets.txt")) and only targets"
else
	tap_result "not ok" "make help lists every target and only targets" "not listed: ${missing:-none}; not targets: ${extra:-none}"
fi

# `make run` with little or no highmem: the demo adapts and says so.
# demo_runs NAME EXPECTED-REGEX VAR=VALUE...
demo_runs() {
	local name=$1 want=$2; shift 2
	local dir=$out/demo-$TAP_N log=$out/demo-$TAP_N.log
	mk -j2 O="$dir" "$@" QEMU_TIMEOUT=120 run > "$log" 2>&1
	local rc=$?
	if [ "$rc" -ne 0 ]; then
		tap_result "not ok" "$name" "exit status $rc; see $log"
	elif ! tr -d '\r' < "$log" | grep -Ec "$want" > /dev/null; then
		tap_result "not ok" "$name" "no line matching /$want/; see $log"
	elif ! tr -d '\r' < "$log" | grep -c '^demo: data verification: 0 mismatching words' > /dev/null; then
		tap_result "not ok" "$name" "the threads phase did not verify its data; see $log"
	else
		tap_result ok "$name"
	fi
}
demo_runs "make run RAM_MB=64 LOWMEM_MB=64: no highmem, the demo says so and runs" \
	'^demo: no highmem to exercise' RAM_MB=64 LOWMEM_MB=64
# Of the 256 highmem pages the main thread's stack takes two (arch/arm/mm/stack.c).
demo_runs "make run RAM_MB=33 LOWMEM_MB=32: 256 highmem pages, the demo adapts" \
	'^demo: 254 highmem pages for the threads .*topped up' RAM_MB=33 LOWMEM_MB=32

# QEMU runs are bounded: a firmware that never ends (here QEMU halted with
# -S) is stopped at QEMU_TIMEOUT and the runner says so.
img=$out/demo-$((TAP_N - 1))/lokal.elf
start=$SECONDS
QEMU_TIMEOUT=2 tools/qemu-run.sh "$img" -S > "$out/timeout.log" 2>&1 < /dev/null
rc=$?
if [ "$rc" -eq 124 ] && grep -q 'did not finish within QEMU_TIMEOUT=2s' "$out/timeout.log" &&
   [ $((SECONDS - start)) -lt 15 ]; then
	tap_result ok "qemu-run.sh stops a run at QEMU_TIMEOUT and says so (status 124)"
else
	tap_result "not ok" "qemu-run.sh stops a run at QEMU_TIMEOUT and says so (status 124)" "status $rc; see $out/timeout.log"
fi
# A QEMU_ICOUNT other than 0 or 1 is refused before QEMU starts, not taken as off.
for v in yes 2 abc; do
	if QEMU_ICOUNT=$v QEMU_TIMEOUT=5 tools/qemu-run.sh "$img" > "$out/icount-$v.log" 2>&1 < /dev/null; then
		rc=0
	else
		rc=$?
	fi
	if [ "$rc" = 2 ] && grep -q "QEMU_ICOUNT=$v: 1 (instruction-counted time) or 0" "$out/icount-$v.log"; then
		tap_result ok "qemu-run.sh refuses QEMU_ICOUNT=$v with one line (status 2)"
	else
		tap_result "not ok" "qemu-run.sh refuses QEMU_ICOUNT=$v with one line (status 2)" "status $rc; see $out/icount-$v.log"
	fi
done
if tools/qemu-run.sh "$out/no-such.elf" > "$out/noimage.log" 2>&1; then
	tap_result "not ok" "qemu-run.sh refuses a missing image" "it succeeded"
else
	grep -q 'no such image' "$out/noimage.log" && tap_result ok "qemu-run.sh refuses a missing image" ||
		tap_result "not ok" "qemu-run.sh refuses a missing image" "see $out/noimage.log"
fi
# The target runner on a fresh tree (no build/check yet) runs, reports
# and fails loudly: a wrong exit status, a missing image and a malformed
# line are failures. Its images are built with HZ=100 (the default value)
# named: a build folder of this phase's own, so that it never builds in
# the folder check-target builds in at the same time.
fresh_o=$(build_dir versatilepb "HZ=100")
printf '%s\n' 'test_fault_null | qemu | * | HZ=100 | 3 | data abort |' \
	'test_no_such_image | qemu | * | HZ=100 | 0 | |' 'test_boot | qemu' > "$out/bad.list"
CHECK_OUT=$out/fresh TARGET_BOARDS=versatilepb tests/target/run.sh "$out/bad.list" "$out/bad.tap" > "$out/runner.log" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && [ "$(grep -c '^not ok' "$out/bad.tap")" -eq 3 ] &&
   grep -q 'test_fault_null \[HZ=100\]: exit status 4, expected 3' "$out/bad.tap" &&
   grep -q 'bad.list:3: not the 7 columns' "$out/bad.tap" &&
   [ -d "$out/fresh/target/${fresh_o#build/}" ]; then
	tap_result ok "tests/target/run.sh on a fresh tree: runs, reports each failure, exits non-zero"
else
	tap_result "not ok" "tests/target/run.sh on a fresh tree: runs, reports each failure, exits non-zero" \
		"status $rc; see $out/bad.tap and $out/runner.log"
fi

tap_close
