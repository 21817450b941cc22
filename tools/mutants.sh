#!/usr/bin/env bash
# Mutation check of the cache/TLB maintenance: delete each
# maintenance call on the map, unmap, context-switch and pkmap-flush paths
# (and inside the ARM hooks and set_pte_ext that those paths call), and each
# trigger of the deferred flush, one at a
# time, rebuild the host tests (the mm suites and the host scheduler suite, in
# default (deferred), KMAP_DEFER=0 (eager) and DEBUG_HIGHMEM builds, one after the other until
# a kill), run them, and require that a test *about that step* fails: the
# table below names, per maintenance call, the tests whose subject it is (or
# the model violation it prevents). A kill only by other tests (an artefact
# of IRQ injection, say) does not count.
#
#   tools/mutants.sh [TAP-FILE]
#   MUTANTS_ALL=1 tools/mutants.sh   every suite of every variant for each
#                                    mutant (slow; build/host/mutants/mutant-N.failures
#                                    lists all that failed)
#
# A call is "deleted" by guarding it with if (0), so the mutant still
# compiles warning-free and a kill can only come from a test. Works on a
# private copy of the tree under build/host/mutants; the working tree is
# never touched.
set -uo pipefail

tap=${1:-/dev/stdout}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$root/build/host/mutants
src=$work/tree
files="firmware/mm/*.c arch/arm/include/asm/highmem.h arch/arm/include/asm/pgtable.h"
calls='flush_other_slot|flush_page_in|kmap_local_flush_page|arch_kmap_local_post_map|arch_kmap_local_pre_unmap|arch_kmap_local_post_unmap|flush_cache_kmaps|flush_tlb_kmaps|__cpuc_flush_dcache_area|__cpuc_flush_kern_all|cpu_dcache_clean_area|cpu_dcache_inv_area|cpu_drain_write_buffer|local_flush_tlb_kernel_page|local_flush_tlb_all|dmac_clean_range|dmac_inv_range|dmac_flush_range|maint'
variants="eager debug default"
# The deferred scheme's flushes exist in its build only: try that one first for them.
defer_first="default eager debug"
make_args=(-s -j2 HOST_SAN= SCHED_HOST_SAN= HOST_OUT=build/host/mut SCHED_HOST_OUT=build/host/mut-sched)

# What each maintenance step is for, as test names (ERE over "binary: case
# (first model violation the binary reported)").
# Keyed by the deleted call; a key "call@file" overrides it for one file, and
# "call@file:function" for the call in one function (the deferred flush's
# triggers share their calls, so each trigger is told apart by its function).
declare -A about=(
	[arch_kmap_local_post_map]='local_write_then_kmap_read|kmap_write_then_local_read|round_robin|switch_keeps_maps|switches_move_kmaps|irq_|wakeup_during_kmap_restore|model: .*tlb'
	[arch_kmap_local_pre_unmap]='local_write_then_kmap_read|round_robin|switch_keeps_maps|switches_move_kmaps|irq_|kmap_held_while_mapped'
	[arch_kmap_local_post_unmap]='unmapped_slot_faults|switched_out_slot_faults|local_write_then_kmap_read|round_robin|switch_keeps_maps|switches_move_kmaps|irq_'
	[flush_cache_kmaps]='kmap_counts_and_flush_unused|wrap_around_recycles_slots|full_pool_sleeps|kmap_write_then_local_read|flushed_pkmap_slot|free_after_kmap'
	[flush_tlb_kmaps]='flushed_pkmap_slot_faults|wrap_around_recycles_slots|kmap_write_then_local_read|full_pool_sleeps|free_after_kmap'
	[__cpuc_flush_kern_all]='kmap_counts_and_flush_unused|wrap_around_recycles_slots|full_pool_sleeps|kmap_write_then_local_read|flushed_pkmap_slot|free_after_kmap'
	[local_flush_tlb_all]='flushed_pkmap_slot_faults|wrap_around_recycles_slots|kmap_write_then_local_read|full_pool_sleeps|free_after_kmap'
	[local_flush_tlb_kernel_page]='unmapped_slot_faults|switched_out_slot_faults|local_write_then_kmap_read|kmap_write_then_local_read|round_robin|switch_keeps_maps|switches_move_kmaps|irq_'
	[__cpuc_flush_dcache_area]='local_write_then_kmap_read|round_robin|switch_keeps_maps|switches_move_kmaps|irq_|kmap_held_while_mapped|free_after_kmap'
	[arch_kmap_local_pre_unmap@firmware/mm/pkmap.c]='free_after_kunmap_releases_the_pkmap_slot|free_after_kmap'
	[arch_kmap_local_post_unmap@firmware/mm/pkmap.c]='free_after_kunmap_releases_the_pkmap_slot|free_after_kmap'
	# The TLB invalidate after a slot's PTE is written matters where the slot
	# had a live entry: a restore after an interrupt mapped in the switch window.
	[local_flush_tlb_kernel_page@arch/arm/include/asm/highmem.h:arch_kmap_local_post_map]='wakeup_during_kmap_restore|lost_races|model: .*tlb|unmapped_slot_faults|switched_out_slot_faults|local_write_then_kmap_read|kmap_write_then_local_read|round_robin|switch_keeps_maps|switches_move_kmaps|irq_'
	[cpu_dcache_clean_area]='unclean table walk'
	[cpu_drain_write_buffer]='unclean table walk'
	# The deferred scheme: one test per trigger of the deferred flush. Every
	# flush of another thread's slot goes through flush_other_slot(), so its
	# line work is about all of them, and the races of its holder with it.
	[arch_kmap_local_pre_unmap@firmware/mm/kmap_defer.c:flush_other_slot]='defer_(reuse|alias|free|non_cpu_access|preempted_.*map)|_pte_clear|inside_line_work'
	[arch_kmap_local_post_unmap@firmware/mm/kmap_defer.c:slot_empty]='defer_free|unmapped_slot_faults|local_write_then_kmap_read|round_robin|switch_keeps_maps|switches_move_kmaps|irq_|_pte_clear'
	[arch_kmap_local_post_map@firmware/mm/kmap_defer.c:slot_install]='wakeup_during_kmap_restore|lost_races|model: .*tlb'
	[arch_kmap_local_pre_unmap@firmware/mm/kmap_defer.c:kmap_scheme_unmap]='defer_|unmapped_slot_faults|local_write_then_kmap_read|round_robin|switch_keeps_maps|switches_move_kmaps|irq_'
	[arch_kmap_local_pre_unmap@firmware/mm/highmem.c:kmap_flush_deferred]='non_cpu_access_own_map'
	[flush_other_slot@firmware/mm/kmap_defer.c:flush_page_in]='defer_alias_by_(new_pkmap|kmap_high_get|local_map|kmap_atomic|kmap_local_pfn)|defer_free|defer_non_cpu_access|_pte_clear|inside_line_work'
	[flush_other_slot@firmware/mm/kmap_defer.c:map_slow]='defer_reuse_by_map|defer_preempted_.*map'
	[flush_other_slot@firmware/mm/kmap_defer.c:kmap_local_sched_in]='defer_alias_by_sched_in|defer_reuse_by_sched_in'
	[flush_page_in@firmware/mm/kmap_defer.c:map_slow]='defer_alias_by_(local_map|kmap_atomic|kmap_local_pfn)'
	[flush_page_in@firmware/mm/kmap_defer.c:kmap_local_flush_page]='defer_alias_by_new_pkmap|defer_alias_by_kmap_high_get|defer_free|defer_non_cpu_access|_pte_clear|inside_line_work'
	[kmap_local_flush_page@firmware/mm/highmem.c:kmap_flush_deferred]='defer_non_cpu_access|flush_deferred_'
	[kmap_local_flush_page@firmware/mm/pkmap.c:map_new_virtual]='defer_alias_by_new_pkmap'
	[kmap_local_flush_page@firmware/mm/pkmap.c:kmap_high_get]='defer_alias_by_kmap_high_get'
	[kmap_local_flush_page@firmware/mm/page_alloc.c:__free_page]='defer_free|free_page_'
	# Streaming DMA (tests/host/test_dma.c): each step of the maintenance
	# table and each address a page's lines may sit at.
	[dmac_clean_range@firmware/mm/dma-mapping.c:dma_va_to_device]='dma_to_device_|dma_sg_'
	[dmac_clean_range@firmware/mm/dma-mapping.c:dma_clean_partial]='dma_from_device_.*partial_lines'
	[dmac_flush_range@firmware/mm/dma-mapping.c:dma_va_to_device]='dma_bidirectional'
	[dmac_inv_range@firmware/mm/dma-mapping.c:dma_va_to_device]='dma_from_device_.*evict_during_transfer|dma_sync_for_cpu_then_device'
	[dmac_inv_range@firmware/mm/dma-mapping.c:dma_va_to_cpu]='dma_from_device_.*cpu_read_during|dma_sync_for_cpu_then_device'
	[maint@firmware/mm/dma-mapping.c:dma_page_maint]='dma_(to|from)_device_(lowmem|highmem|pkmap|two)|dma_sg_|dma_bidirectional|dma_sync_'
	[kmap_local_flush_page@firmware/mm/dma-mapping.c:dma_page_maint]='dma_(to|from)_device_page_in_deferred_slot'
)

mkdir -p "$work"
rm -rf "$src"
mkdir -p "$src"
(cd "$root" && tar cf - --exclude=./build --exclude=./.git .) | (cd "$src" && tar xf -)
tests=$(cd "$src" && ls tests/host/test_*.c | sed 's|.*/||; s|\.c$||')

# Every maintenance call site: file:line.
sites=$(cd "$src" && grep -nE "^[[:space:]]*($calls)\(.*\);[[:space:]]*\\\\?$" $files | cut -d: -f1,2)

# Build suite $2 (mm or sched) of variant $1.
build() {
	local t targets=()
	if [ "$2" = sched ]; then
		targets=(build/host/mut-sched/$1/test_sched_real)
	else
		for t in $tests; do
			targets+=(build/host/mut/$1/bin/$t)
		done
	fi
	make -C "$src" "${make_args[@]}" "${targets[@]}" > "$work/build.log" 2>&1
}

# Run suite $2 of variant $1; print each failure as "variant binary: case (first
# model violation)"; a crash counts. With a pattern $3 (and not MUTANTS_ALL),
# stop after the first binary that has a failure matching it: the verdict
# is made, and the remaining binaries would only cost time.
failures() {
	local v=$1 want=${3:-} t bin log rc why list=$tests f
	[ "$2" = sched ] && list=test_sched_real
	for t in $list; do
		if [ "$2" = sched ]; then
			bin=build/host/mut-sched/$v/test_sched_real
		else
			bin=build/host/mut/$v/bin/$t
		fi
		log=$work/run-$v-$t.log
		{ (cd "$src" && CMOCKA_MESSAGE_OUTPUT=TAP timeout 60 "$bin" > "$log" 2>&1); } 2>/dev/null
		rc=$?
		why=$(grep -m1 -oE 'MODEL VIOLATION: [^:]*' "$log" | sed 's/MODEL VIOLATION: //')
		f=
		if grep -q '^not ok ' "$log"; then
			f=$(sed -n "s/^not ok [0-9]* - \([^ ]*\).*/$v $t: \1${why:+ ($why)}/p" "$log")
		elif [ "$rc" -ne 0 ]; then
			f="$v $t: exited with status $rc${why:+ ($why)}"
		fi
		[ -n "$f" ] && echo "$f"
		if [ -n "$want" ] && [ -z "${MUTANTS_ALL:-}" ] && echo "$f" | grep -qE "$want"; then
			return
		fi
	done
}

n=0 killed=0
out=()
say() { out+=("$1"); echo "$1" | sed 's/^/  /' >&2; }

for v in $variants; do
	for suite in mm sched; do
		if ! build "$v" $suite; then
			say "not ok 1 - mutants: the unmutated tree does not build (see $work/build.log)"
			printf '%s\n' "${out[@]}" > "$tap"
			exit 1
		fi
		f=$(failures "$v" $suite)
		if [ -n "$f" ]; then
			say "not ok 1 - mutants: the unmutated tree fails: $(echo "$f" | head -3 | paste -sd';')"
			printf '%s\n' "${out[@]}" > "$tap"
			exit 1
		fi
	done
done

total=$(echo "$sites" | grep -c .)
for site in $sites; do
	file=${site%%:*} line=${site#*:}
	n=$((n + 1))
	# Mutate the copy as it was when the sites were found (others may edit the tree meanwhile).
	cp "$src/$file" "$work/original"
	code=$(sed -n "${line}p" "$src/$file" | sed 's/^[[:space:]]*//; s/[[:space:]]*\\$//')
	call=${code%%(*}
	# The function the call is in: the last line above it that starts a definition.
	func=$(head -n "$line" "$src/$file" | grep -E '^[a-z_].*[a-z0-9_]\(' | grep -v ';' | tail -1 | \
		sed -E 's/\(.*//; s/.*[^a-z0-9_]//')
	want=${about[$call@$file:$func]:-${about[$call@$file]:-${about[$call]:-}}}
	order=$variants
	case $file:$call in
	firmware/mm/kmap_defer.c:*|*:kmap_local_flush_page) order=$defer_first ;;
	esac
	sed -i "${line}s/^\([[:space:]]*\)\(.*\)$/\1if (0) \2/" "$src/$file"
	name="mutant $n/$total $file:$line: $code"
	# Variant by variant, mm suites then the scheduler suite, until a test about this step fails.
	all= first= built=1
	for v in $order; do
		for suite in mm sched; do
			if ! build "$v" $suite; then
				built=
				break 2
			fi
			f=$(failures "$v" $suite "$want")
			all+=${f:+$f$'\n'}
			[ -z "$first" ] && first=$(echo "$f" | grep -m1 -E "${want:-^$}")
			[ -n "$first" ] && [ -z "${MUTANTS_ALL:-}" ] && break 2
		done
	done
	echo "$all" > "$work/mutant-$n.failures"
	if [ -z "$built" ]; then
		say "not ok $n - $name: mutant does not build (see $work/build.log)"
	elif [ -z "$(echo "$all" | grep .)" ]; then
		say "not ok $n - $name survived"
	elif [ -z "$first" ]; then
		say "not ok $n - $name killed only by tests not about it: $(echo "$all" | grep . | head -2 | paste -sd';')"
	else
		killed=$((killed + 1))
		say "ok $n - $name killed by host[${first%% *}] ${first#* } ($(echo "$all" | grep -c .) failing test(s) in the binaries run, $(echo "$all" | grep -c ' test_sched_real: ') of them in the scheduler suite)"
	fi
	cp "$work/original" "$src/$file"
done
printf '%s\n' "${out[@]}" > "$tap"
echo "mutants killed $killed/$total"
[ "$killed" -eq "$total" ]
