#!/usr/bin/env bash
# A board's driver mutants (board/BOARD/mutants.list, where the board has
# one): a bug is planted in turn in a copy of the board's drivers or board
# code (the mutation engine's source back end, tests/lib/mutants.sh), the
# test image the table names is rebuilt for BOARD and run on vivt-emu's
# machine of that name by tests/run-image, and the run must fail (wrong
# exit status, a failed case, a missing line, or the device model stopping
# the run).  The unmutated copy must pass first, so a kill means the
# planted bug.  Ends with "BOARD mutants killed N/N".
#
#   tests/vivt/board-mutants.sh BOARD
# Environment: TAP (default stdout), TAP_N0 (TAP numbers start after it),
# VIVT_JOBS (default 2), VIVT_TIMEOUT (s per run, default 150).
set -uo pipefail
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh
. tests/lib/images.sh
. tests/lib/mutants.sh
board=${1:?usage: tests/vivt/board-mutants.sh BOARD}
export board
tap_open "${TAP:-/dev/stdout}"
jobs=${VIVT_JOBS:-2}
out=build/vivt-emu/$board-mutants
tree=$out/tree
table=board/$board/mutants.list
[ -r "$table" ] || { tap_result "not ok" "$board mutants: no $table"; exit 1; }
rm -rf "$out"
mkdir -p "$out"
# Times kept (tar), and the objects of the board's default build (check-vivt-
# board's) copied in when there are some: then each build compiles only what changed.
mutants_tree "$tree"
built=$(build_dir "$board")
if [ -d "$built/obj" ]; then
	mkdir -p "$tree/build/m"
	cp -rp "$built/obj" "$built/include" "$tree/build/m/"
fi

mutants=$(mutants_read "$table")

# run_image ELF STDIN LOG: true when the image passes (status 0, every case
# ok and as many as planned, no model report).
run_image() {
	"$LOKAL_ROOT/tests/run-image" --runner vivt --machine "$board" "$1" --ram "$ram" --cases \
		--input "$2" --timeout "${VIVT_TIMEOUT:-150}" --log "$3" \
		-- --max-insns 3000000000 --seed 5 --jitter 20000 > "$3.verdict"
}
export -f run_image

build() {	# $1 name: builds both images into $out/$1/
	mkdir -p "$out/$1"
	make --no-print-directory -C "$tree" -j"$jobs" BOARD="$board" O=build/m \
		build/m/tests/test_kmap_sched.elf build/m/tests/test_boot.elf > "$out/$1/build.log" 2>&1 &&
		cp "$tree"/build/m/tests/test_{kmap_sched,boot}.elf "$out/$1/"
}

# The images are copied out of the build: their RAM size from its configuration.
ram=""
build baseline && ram=$(image_config "$tree/build/m/tests/test_boot.elf" RAM_MB)
export ram
if [ -z "$ram" ] || ! run_image "$out/baseline/test_kmap_sched.elf" "" "$out/baseline/sched.log" ||
	! run_image "$out/baseline/test_boot.elf" 'lokal-rx\n' "$out/baseline/boot.log"; then
	tap_result "not ok" "$board mutants: the unmutated copy does not build or pass ($out/baseline)"
	tap_summary "$board mutants killed" "0/$(grep -c . <<< "$mutants")"
	exit 1
fi

# Build every mutant (one at a time in the copy), then run them in parallel.
names=()
while IFS=$'\x1f' read -r name file change killer what; do
	if [ "$name" = '!' ]; then tap_result "not ok" "$board mutants: $file"; continue; fi
	read -r _ image input <<< "$killer"
	if ! why=$(mutant_source "$tree" "$file" "$change"); then
		tap_result "not ok" "$board mutant $name: $why"
		continue
	fi
	if ! build "$name"; then
		tap_result "not ok" "$board mutant $name: does not build ($out/$name/build.log)"
	else
		names+=("$name@$image@$input@$what")
	fi
	mutant_restore "$tree" "$file"
done <<< "$mutants"

printf '%s\0' "${names[@]}" | xargs -0 -n 1 -P "$jobs" bash -c '
	IFS="@" read -r name image input what <<< "$1"
	if run_image "'"$out"'/$name/$image.elf" "$input" "'"$out"'/$name/run.log"; then
		echo survived > "'"$out"'/$name/verdict"
	else
		echo killed > "'"$out"'/$name/verdict"
	fi' _
for spec in "${names[@]}"; do
	IFS='@' read -r name image input what <<< "$spec"
	log=$out/$name/run.log
	why=$(grep -m1 -E '^vivt-emu: error|^not ok |^# FAILED' "$log" | cut -c1-200)
	if [ "$(cat "$out/$name/verdict" 2>/dev/null)" = killed ]; then
		res="$image fails: ${why:-$(tail -1 "$log" | cut -c1-200)}"
		mutant_verdict "$board mutant" "$name ($what)" vivt "killed: $res"
	else
		mutant_verdict "$board mutant" "$name ($what)" vivt "$image still passes ($log)"
	fi
done
MUTANTS_TOTAL=$(grep -c . <<< "$mutants")
mutants_summary "$board mutants"
tap_close
