#!/usr/bin/env bash
# The asm mutants (arch/arm/mm/mutants.list): each cache/TLB maintenance
# instruction of the built image (arch/arm/mm/*.S, head.S, the PTE write
# path) is broken in turn by patching the ELF that ships (the mutation
# engine's ELF back end, tests/lib/mutants.sh), and the image the table's
# "killed by" names, run on vivt-emu, must fail: a model report or a wrong
# result.  Ends with the summary figure "asm mutants killed" N/N.
#
# An operation the emulator shows to be redundant is listed as such with
# the reason, and checked the other way round: that mutant must survive
# every image, so the claim stays true as the code changes.
#
# A kill counts only when the model reported: a test's own data check can
# fail or pass on what the emulator's translation cache happened to keep,
# the oracle's verdict cannot. Two mutants, the first the oracle must
# kill and the first that must survive, then run again against the same
# images while busy processes load every core (tests/lib/busy.sh): their
# verdict, exit status, instruction count and report count must be the
# same as alone. Two, not all: the others share their whole path (patch,
# run, verdict), and the load costs make check two cores while it lasts.
#
# Environment: TAP (default stdout), TAP_N0 (TAP numbers start after it),
# VIVT_JOBS (default 2).
set -uo pipefail
# One brace group: bash reads it whole, so editing this file mid-run is safe.
{
cd "$(dirname "$0")/../.."
. tests/lib/tap.sh
. tests/lib/images.sh
. tests/lib/mutants.sh
. tests/lib/busy.sh
tap_open "${TAP:-/dev/stdout}"
emu=build/vivt-emu/vivt-emu
out=build/vivt-emu/mutants
jobs=${VIVT_JOBS:-2}
rm -rf "$out"
mkdir -p "$out"

# Images that kill mutants, cheapest first: "elf|ram MiB|make vars".
images=(
	"$(build_dir versatilepb)/tests/test_kmap_sched.elf|128|"
	"$(build_dir versatilepb)/tests/test_highmem.elf|128|"
	"$(build_dir versatilepb "RAM_MB=64 LOWMEM_MB=16 LAST_PKMAP=16")/tests/test_highmem.elf|64|RAM_MB=64 LOWMEM_MB=16 LAST_PKMAP=16"
)
for spec in "${images[@]}"; do
	IFS='|' read -r elf ram vars <<< "$spec"
	if [ ! -f "$elf" ]; then
		build_images versatilepb "$vars" "$out" "tests/$(basename "$elf")" ||
			{ tap_result "not ok" "asm mutants: cannot build $elf (see $out/build-${O#build/}.log)"; exit 1; }
	fi
done

table=arch/arm/mm/mutants.list
mutants=$(mutants_read "$table")

# One mutant against the image KILLER names ("vivt IMAGE [VARS]"), or every
# image for one that must survive; writes "killed|survived|error <detail>"
# to $out/NAME.result$PASS, and one line per image run ("IMAGE exit=
# insns= reports=") to $out/NAME.runs$PASS.
run_mutant() {
	local name=$1 func=$2 change=$3 killer=$4 spec elf ram vars img m addrs rc run=() st reports
	local result=$out/$name.result$PASS runs=$out/$name.runs$PASS
	: > "$runs"
	for spec in "${images[@]}"; do
		IFS='|' read -r elf ram vars <<< "$spec"
		[[ $killer == survives:* || "vivt $(basename "$elf" .elf)${vars:+ $vars}" == "$killer" ]] && run+=("$spec")
	done
	if [ "${#run[@]}" -eq 0 ]; then
		echo "error: \"$killer\" names none of the images this runner has (${images[*]})" > "$result"
		return
	fi
	for spec in "${run[@]}"; do
		IFS='|' read -r elf ram vars <<< "$spec"
		img=$(basename "$elf" .elf)${vars:+-$(echo "$vars" | tr ' =' '_-')}
		m=$out/$name-$img.elf
		if ! addrs=$(mutant_elf "$elf" "$m" "$func" "$change" 2>&1); then
			echo "error $addrs" > "$result"
			return
		fi
		st=$out/$name-$img$PASS.stats
		rm -f "$st"
		timeout -k 5 300 "$emu" --ram "$ram" --max-insns 4000000000 --max-reports 20 --input /dev/null \
			--stats-file "$st" "$m" > "$out/$name-$img$PASS.log" 2>&1
		rc=$?
		reports=$(sed -n 's/^reports=//p' "$st" 2>/dev/null)
		echo "$img exit=$rc insns=$(sed -n 's/^insns=//p' "$st" 2>/dev/null) reports=${reports:-?}" >> "$runs"
		if [ "$rc" -ne 0 ]; then
			local why
			why=$(awk '/^vivt-emu: REPORT/ { if (n++) exit; print substr($0, 11, 250); next }
				n && /^vivt-emu:   / { sub(/^vivt-emu: +/, ""); print; next } n { exit }' \
				"$out/$name-$img$PASS.log" | paste -sd'|' - | sed 's/|/ | /g')
			if [ "${reports:-0}" -gt 0 ] 2>/dev/null; then
				echo "killed by $img (patched $addrs): $why" > "$result"
			else
				echo "not killed by the oracle: $img failed (exit status $rc: $(grep -m1 -E '^not ok|^vivt-emu: error' \
					"$out/$name-$img$PASS.log" | cut -c1-200)) with no model report, a verdict that rests on what the emulator's translation cache kept" > "$result"
			fi
			return
		fi
	done
	echo "survived (patched $addrs; ran ${#run[@]} image(s))" > "$result"
}
export -f run_mutant mutant_elf
export out emu PASS=
export images_list="${images[*]}"

echo "$mutants" | while IFS=$'\x1f' read -r name func change killer what; do
	[ "$name" = '!' ] || printf '%s\0%s\0%s\0%s\0' "$name" "$func" "$change" "$killer"
done > "$out/mutants.nul"
# Arrays do not cross into xargs' shells: pass the image list through a file.
printf '%s\n' "${images[@]}" > "$out/images.txt"
xargs -0 -n 4 -P "$jobs" bash -c 'mapfile -t images < "$0/images.txt"; run_mutant "$1" "$2" "$3" "$4"' "$out" \
	< "$out/mutants.nul"
# One killed and one surviving mutant again, every core kept busy by this runner meanwhile.
load_names=$(echo "$mutants" | awk -F'\x1f' '$1 != "!" && !k && $4 !~ /^survives:/ { k = $1; print $1 }
	$1 != "!" && !s && $4 ~ /^survives:/ { s = $1; print $1 }')
echo "$mutants" | while IFS=$'\x1f' read -r name func change killer what; do
	grep -qxF "$name" <<< "$load_names" && printf '%s\0%s\0%s\0%s\0' "$name" "$func" "$change" "$killer"
done > "$out/mutants-load.nul"
busy_start
PASS=.load xargs -0 -n 4 -P "$jobs" bash -c 'mapfile -t images < "$0/images.txt"; run_mutant "$1" "$2" "$3" "$4"' "$out" \
	< "$out/mutants-load.nul"
busy_stop

while IFS=$'\x1f' read -r name func change killer what; do
	if [ "$name" = '!' ]; then tap_result "not ok" "asm mutants: $func"; continue; fi
	res=$(cat "$out/$name.result" 2>/dev/null || echo "error: no result")
	# The image's own data (thread_name_offset) must name the thread.
	[[ $res == killed*"thread unknown"* ]] && res="the report does not name the thread: $res"
	mutant_verdict "asm mutant" "$name ($func: ${change% => *}, $what)" "$killer" "$res"
	grep -qxF "$name" <<< "$load_names" || continue
	alone=$(cat "$out/$name.runs" 2>/dev/null) loaded=$(cat "$out/$name.runs.load" 2>/dev/null)
	res_load=$(cut -d' ' -f1 "$out/$name.result.load" 2>/dev/null)
	if [ -n "$alone" ] && [ "$alone" = "$loaded" ] && [ "${res%% *}" = "$res_load" ]; then
		tap_result ok "asm mutant $name: the same verdict, exit status, instructions and reports under load ($(paste -sd';' <<< "$alone"))"
	else
		tap_result "not ok" "asm mutant $name: alone and under load differ: alone ${res%% *} ($(paste -sd';' <<< "$alone")), under load ${res_load:-no result} ($(paste -sd';' <<< "$loaded"))"
	fi
done <<< "$mutants"
mutants_summary "asm mutants"
tap_close
exit
}
