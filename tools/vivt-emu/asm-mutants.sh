#!/usr/bin/env bash
# The asm mutants: each cache/TLB maintenance instruction of the built
# image (arch/arm/mm/*.S, head.S, the PTE write path) is broken in turn by
# patching the ELF that ships (tools/vivt-emu/elf-mutate.py), and the
# target images run on vivt-emu must fail: a model report or a wrong
# result.  Ends with "asm mutants killed N/N".
#
# An operation the emulator shows to be redundant is listed as such with
# the reason, and checked the other way round: that mutant must survive,
# so the claim stays true as the code changes.
#
# Environment: TAP (default stdout), N0 (TAP numbers start after it),
# VIVT_JOBS (default 2).
set -uo pipefail
# One brace group: bash reads it whole, so editing this file mid-run is safe.
{
cd "$(dirname "$0")/../.."
tap=${TAP:-/dev/stdout}
n=${N0:-0}
emu=build/vivt-emu/vivt-emu
out=build/vivt-emu/mutants
jobs=${VIVT_JOBS:-2}
rm -rf "$out"
mkdir -p "$out"
emit() { n=$((n + 1)); echo "$1 $n - $2" >> "$tap"; [ "$tap" = /dev/stdout ] || echo "$1 $n - $2"; }

# Images that kill mutants, cheapest first: "elf|ram MiB|make vars".
images=(
	"build/versatilepb-default/tests/test_kmap_sched.elf|128|"
	"build/versatilepb-default/tests/test_highmem.elf|128|"
	"build/versatilepb-RAM_MB-64_LOWMEM_MB-16_LAST_PKMAP-64/tests/test_highmem.elf|64|RAM_MB=64 LOWMEM_MB=16 LAST_PKMAP=64"
)
for spec in "${images[@]}"; do
	IFS='|' read -r elf ram vars <<< "$spec"
	if [ ! -f "$elf" ]; then
		make --no-print-directory O="${elf%/tests/*}" $vars target-images > "$out/build.log" 2>&1 ||
			{ emit "not ok" "asm mutants: cannot build $elf (see $out/build.log)"; exit 1; }
	fi
done

# name | function | instruction (regex on objdump's text) | rewrite | kill, or why redundant
mutants=$(cat <<'EOF'
flush-half|__cpuc_flush_dcache_area|^add\s+r1, r0, r1$|lsr1|kill
flush-c7c6|__cpuc_flush_dcache_area|cr7, cr14, \{1\}|crm=6|kill
pte-clean|cpu_dcache_clean_area|cr7, cr10, \{1\}|nop|kill
pte-drain|cpu_drain_write_buffer|cr7, cr10, \{4\}|nop|kill
tlb-page|local_flush_tlb_kernel_page|cr8, cr[56], \{1\}|nop|kill
tlb-all|local_flush_tlb_all|cr8, cr7, \{0\}|nop|kill
flush-all-loop|__cpuc_flush_kern_all|^bne\s|nop|kill
flush-drain|__cpuc_flush_dcache_area|cr7, cr10, \{4\}|nop|redundant: every kmap teardown writes the PTE right after the flush, and set_pte_ext drains the write buffer; the buffer drains in order, so that drain also covers the flush's write-backs
tlb-page-d|local_flush_tlb_kernel_page|cr8, cr6, \{1\}|nop|redundant: the ARM926EJ-S has one unified TLB (TRM DDI0198 3.1), so c8,c5,1 on the same MVA drops the same entry; removing both (tlb-page) is killed
tlb-page-i|local_flush_tlb_kernel_page|cr8, cr5, \{1\}|nop|redundant: unified TLB, c8,c6,1 on the same MVA drops the same entry (see tlb-page)
boot-tlb-mmu|arch_mmu_init|cr8, cr7, \{0\}|nop|redundant: head.S invalidated the TLB and the MMU stays off until after this, so no walk can have filled it
boot-tlb-head|_start|cr8, cr7, \{0\}|nop|redundant: in the emulator the CPU resets with an empty TLB (a loader that ran with the MMU on could leave entries, which is why it stays; arch_mmu_init invalidates again too)
boot-clean-loop|_start|^bne\s|nop|redundant: in the emulator the CPU resets with clean, empty caches (on a board a loader may leave dirty lines, which is why the loop stays)
vectors-icache|arch_mmu_init|cr7, cr7, \{0\}|nop|redundant: the vectors are written with the I-cache off (head.S turned it off and invalidated it) and it is turned on only after this, so no stale line can exist; a board whose loader left the I-cache on is covered by head.S's c7,c7,0
EOF
)

# One mutant against the images in turn; writes "killed|survived|error <detail>".
run_mutant() {
	local name=$1 func=$2 re=$3 op=$4 spec elf ram vars img m addrs rc
	for spec in "${images[@]}"; do
		IFS='|' read -r elf ram vars <<< "$spec"
		img=$(basename "$elf" .elf)${vars:+-$(echo "$vars" | tr ' =' '_-')}
		m=$out/$name-$img.elf
		if ! addrs=$(tools/vivt-emu/elf-mutate.py "$elf" "$m" "$func" "$re" "$op" 2>&1); then
			echo "error $addrs" > "$out/$name.result"
			return
		fi
		timeout -k 5 300 "$emu" --ram "$ram" --max-insns 4000000000 --max-reports 20 --input /dev/null \
			"$m" > "$out/$name-$img.log" 2>&1
		rc=$?
		if [ "$rc" -ne 0 ]; then
			local why
			why=$(awk '/^vivt-emu: REPORT/ { if (n++) exit; print substr($0, 11, 250); next }
				n && /^vivt-emu:   / { sub(/^vivt-emu: +/, ""); print; next } n { exit }' \
				"$out/$name-$img.log" | paste -sd'|' - | sed 's/|/ | /g')
			[ -z "$why" ] && why="exit status $rc: $(grep -m1 -E '^not ok|^vivt-emu: error' "$out/$name-$img.log" | cut -c1-200)"
			echo "killed by $img (patched $addrs): $why" > "$out/$name.result"
			return
		fi
	done
	echo "survived every image (patched $addrs)" > "$out/$name.result"
}
export -f run_mutant
export out emu
export images_list="${images[*]}"

echo "$mutants" | while IFS='|' read -r name func re op expect; do
	printf '%s\0%s\0%s\0%s\0' "$name" "$func" "$re" "$op"
done > "$out/mutants.nul"
# Arrays do not cross into xargs' shells: pass the image list through a file.
printf '%s\n' "${images[@]}" > "$out/images.txt"
xargs -0 -n 4 -P "$jobs" bash -c 'mapfile -t images < "$0/images.txt"; run_mutant "$1" "$2" "$3" "$4"' "$out" \
	< "$out/mutants.nul"

killed=0
total=0
while IFS='|' read -r name func re op expect; do
	res=$(cat "$out/$name.result" 2>/dev/null || echo "error: no result")
	if [ "$expect" = kill ]; then
		total=$((total + 1))
		case "$res" in
		*"thread unknown"*)     # the image's own data (thread_name_offset) must name it
			emit "not ok" "asm mutant $name ($func: $re): the report does not name the thread: $res";;
		killed*) killed=$((killed + 1)); emit "ok" "asm mutant $name ($func: $re): $res";;
		*) emit "not ok" "asm mutant $name ($func: $re): $res";;
		esac
	else
		case "$res" in
		survived*) emit "ok" "asm mutant $name ($func: $re) is redundant and survives: ${expect#redundant: }";;
		*) emit "not ok" "asm mutant $name ($func: $re) was listed as redundant (${expect#redundant: }) but: $res";;
		esac
	fi
done <<< "$mutants"
echo "asm mutants killed $killed/$total"
[ "$killed" -eq "$total" ]
exit
}
