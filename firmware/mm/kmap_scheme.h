/*
 * How a build keeps local kmap slots across context switches.
 *
 * highmem.c holds what every build shares: each thread's stack of maps
 * (kmap_ctrl), the diagnostics, the kmap_high_get fallback and the lowmem
 * path. The slots themselves are managed by exactly one scheme, picked by
 * the Makefile's source list (firmware/firmware.mk), never by #if:
 *   kmap_eager.c   Linux's: a switch takes the outgoing thread's maps down
 *                  and puts the incoming thread's back (DEBUG_HIGHMEM=1
 *                  always builds this one: a stray pointer into a slot
 *                  its thread left then faults);
 *   kmap_defer.c   a switch leaves the slots alone; a slot is flushed only
 *                  when something needs it (KMAP_DEFER=1).
 *
 * Private to firmware/mm, except the calls also declared in
 * lokal/highmem-internal.h for the scheduler, the page allocator and DMA.
 */
#ifndef MM_KMAP_SCHEME_H
#define MM_KMAP_SCHEME_H

#include <lokal/highmem-internal.h>

/*
 * A compiler barrier, as Linux's barrier(). kmap_ctrl.idx (an int) and the
 * slot PTEs (unsigned long) are different types, so under strict aliasing
 * GCC may move the PTE accesses across the index update. An IRQ that maps
 * in between would then use the same slot: the index must say "taken"
 * before the slot is touched, and "free" only after it is empty. The same
 * holds for the deferred scheme's resident mask and a slot's PTE.
 */
#define kmap_barrier()  __asm__ volatile("" ::: "memory")

/* ---- the one slot table (kmap_slots.c) ---------------------------------- */

/* Each slot's PTE, looked up once at boot (the switch path reads them often). */
extern pte_t *kmap_slot_ptes[KM_MAX_IDX];

static inline pte_t *kmap_slot_pte(int idx)
{
	return kmap_slot_ptes[idx];
}

/* Slot idx's address: slot 0 is the highest, as Linux's fixmap counts down. */
static inline unsigned long kmap_slot_va(int idx)
{
	return __fix_to_virt(FIX_KMAP_BEGIN + idx);
}

void kmap_slots_init(void);

/* With DEBUG_HIGHMEM's guard slots (KM_INCR 2), the slots no map ever uses. */
static inline bool kmap_slot_is_guard(int idx)
{
	return KM_INCR > 1 && (idx % KM_INCR) != KM_INCR - 1;
}

/* ---- what a scheme provides ------------------------------------------- */

/* Boot (and each host test): every slot empty, no thread's maps resident. */
void kmap_scheme_init(void);

/*
 * Install the running thread's map idx, which highmem.c has just pushed
 * and recorded in kmap_ctrl.pteval[idx] (so that a switch-in from then on
 * restores it). Called with preemption disabled; returns with it
 * disabled, but may enable it in between for cache line work.
 */
void kmap_scheme_map(int idx, pte_t pteval);

/*
 * Take the running thread's top map idx out of its slot: lines written
 * back and dropped, PTE and TLB entry gone. Called with preemption as the
 * caller has it; returns with preemption disabled (highmem.c then pops).
 */
void kmap_scheme_unmap(int idx);

/*
 * The rest of the interface is declared in lokal/highmem-internal.h:
 * kmap_local_sched_out() and kmap_local_sched_in() (switch-out and
 * switch-in), kmap_local_forget() (a thread is new or gone) and
 * kmap_local_flush_page() (a page is about to be read or written by
 * something other than the CPU, freed, or given another address).
 */

#endif
