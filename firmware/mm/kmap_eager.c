/*
 * The eager scheme, Linux's: a thread's local maps are in their slots only
 * while it runs. Every switch takes the outgoing thread's maps down (lines
 * written back and dropped, PTE cleared, TLB entry gone) and puts the
 * incoming thread's back, so a switched-out thread leaves nothing behind:
 * a slot is either empty or the running thread's.
 *
 * With DEBUG_HIGHMEM the stack advances two slots per map and the skipped
 * slots stay empty guard pages; that build always links this scheme, so a
 * stray pointer into a slot its thread has left faults at once.
 *
 * One exception keeps the switch's preemption-off window bounded: the
 * teardown of a switch-out is one page flush per map, and when a thread
 * more urgent than the one switched to wakes in the middle of it
 * (kmap_switch_point()), the switch goes on at once and the outgoing
 * thread's remaining slots are left "stale": PTE, TLB entry and lines as
 * they were, marked in stale_mask. Whoever needs such a slot tears it down
 * first (a map into it, a map or a flush of its page elsewhere), each
 * teardown one page with preemption off; the thread that left it, switched
 * back in, finds its own PTE there and keeps the slot as it is. A stray
 * pointer into a stale slot reaches the page it maps instead of faulting:
 * that only happens after a switch-out cut short for a more urgent thread.
 */
#include <stdint.h>
#include "kmap_scheme.h"
#include <lokal/sched.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>

/*
 * One bit per slot, in a word where the slots fit in one (16 slots; the
 * debug build's 33 with guards do not): every switch with maps tests and
 * clears a bit per map, and a 64-bit shift and mask cost ARMv5 several
 * instructions each (per_map_vs_floor in results.json).
 */
#if KM_MAX_IDX <= 32
typedef uint32_t slot_mask_t;
#define slot_ctz(m)     __builtin_ctz(m)
#else
typedef uint64_t slot_mask_t;
#define slot_ctz(m)     __builtin_ctzll(m)
#endif
_Static_assert(KM_MAX_IDX <= sizeof(slot_mask_t) * 8, "one bit per slot in stale_mask");

/* Slots a cut switch-out left with their PTE: see above. */
static slot_mask_t stale_mask;

static inline slot_mask_t slot_bit(int idx)
{
	return (slot_mask_t)1 << idx;
}

/*
 * Lines out of the cache, PTE cleared, TLB entry gone: the slot is empty,
 * stale no more. Inline: a switch-out runs it once per map
 * (per_map_vs_floor in results.json).
 */
__attribute__((always_inline))
static inline void slot_remove(int idx)
{
	unsigned long va = kmap_slot_va(idx);

	arch_kmap_local_pre_unmap(va);
	pte_clear(kmap_slot_pte(idx));
	arch_kmap_local_post_unmap(va);
	kmap_barrier();
	stale_mask &= ~slot_bit(idx);
}

/*
 * Tear down every stale slot that maps pfn: it is about to get another
 * address, or to be read or written by something other than the CPU.
 * Preemption off (the caller's): a thread switched in meanwhile could
 * take a slot back and leave it stale again. Interrupt handlers only
 * ever tear stale slots down, and every step repeats harmlessly.
 * Returns how many it tore down.
 */
static unsigned int __flush_stale_page(unsigned long pfn)
{
	unsigned int n = 0;

	for (slot_mask_t m = stale_mask; m; m &= m - 1) {
		int i = slot_ctz(m);
		pte_t have = *kmap_slot_pte(i);

		if ((stale_mask & slot_bit(i)) && !pte_none(have) && pte_pfn(have) == pfn) {
			slot_remove(i);
			n++;
		}
	}
	return n;
}

/* Inline for the common case of no stale slot: a load and a branch per map. */
static inline unsigned int flush_stale_page(unsigned long pfn)
{
	return __builtin_expect(stale_mask == 0, 1) ? 0 : __flush_stale_page(pfn);
}

static void slot_install(int idx, pte_t pteval)
{
	set_pte_ext(kmap_slot_pte(idx), pteval);
	arch_kmap_local_post_map(kmap_slot_va(idx), pteval);
}

/* A thread that holds a map has work at both ends of every switch. */
static inline void set_switch_work(struct thread *t, bool holds_maps)
{
	t->switch_work.kmap_out = holds_maps;
	t->switch_work.kmap_in = holds_maps;
}

void kmap_scheme_init(void)
{
	stale_mask = 0;
}

void kmap_scheme_map(int idx, pte_t pteval)
{
	pte_t old = *kmap_slot_pte(idx);

	if (stale_mask & slot_bit(idx)) {
		slot_remove(idx);
	} else if (!pte_none(old)) {
		/* Otherwise only a skipped unmap leaves a slot above the running thread's stack in use. */
		panic("kmap_local: slot %d (0x%08lx) for thread '%s' still maps pfn 0x%lx: "
		      "a local kmap was not unmapped", idx, kmap_slot_va(idx), current->name,
		      pte_pfn(old));
	}
	/* A stale slot holding the page would be a second address of it. */
	flush_stale_page(pte_pfn(pteval));
	slot_install(idx, pteval);
	set_switch_work(current, true);
}

void kmap_scheme_unmap(int idx)
{
	preempt_disable();
	slot_remove(idx);
	set_switch_work(current, idx >= KM_INCR);
}

/* What thread t keeps for slot i: 0 for a guard slot (or a hole, which is a bug). */
static pte_t saved_pte(const struct thread *t, int i)
{
	pte_t pteval = t->kmap_ctrl.pteval[i];

	if (kmap_slot_is_guard(i)) {
		WARN_ON_ONCE(!pte_none(pteval));
		return 0;
	}
	WARN_ON_ONCE(pte_none(pteval));
	return pteval;
}

/*
 * The index is left as it is: an interrupt that maps meanwhile nests above
 * it, on slots that are empty, and is gone before it returns. After each
 * page the scheduler may cut the teardown short for a more urgent thread:
 * the rest of prev's slots stay as they are, stale.
 */
void kmap_local_sched_out(struct thread *prev)
{
	int i = 0;

	while (i < prev->kmap_ctrl.idx) {
		bool mapped = !pte_none(saved_pte(prev, i));

		if (mapped)
			slot_remove(i);
		i++;
		if (mapped && kmap_switch_point())
			break;
	}
	for (; i < prev->kmap_ctrl.idx; i++)
		if (!pte_none(saved_pte(prev, i)))
			stale_mask |= slot_bit(i);
}

/*
 * A slot next left stale still holds its PTE: kept as it is. Any other
 * stale slot in the way, or holding one of next's pages, is torn down
 * first, and after each such page the scheduler may stop the walk for a
 * more urgent thread (next keeps its switch-in work: a thread that holds
 * maps always has some).
 */
void kmap_local_sched_in(struct thread *next)
{
	for (int i = 0; i < next->kmap_ctrl.idx; i++) {
		pte_t pteval = saved_pte(next, i);

		if (pte_none(pteval))
			continue;
		if (stale_mask & slot_bit(i)) {
			if (*kmap_slot_pte(i) == pteval) {
				stale_mask &= ~slot_bit(i);
				continue;
			}
			slot_remove(i);
			if (kmap_switch_point())
				return;
		}
		if (flush_stale_page(pte_pfn(pteval)) && kmap_switch_point())
			return;
		slot_install(i, pteval);
	}
}

void kmap_local_forget(struct thread *t)
{
	set_switch_work(t, false);
}

/* A switched-out thread leaves no slot behind, unless its switch-out was cut: those, stale, go. */
void kmap_local_flush_page(unsigned long pfn)
{
	preempt_disable();
	flush_stale_page(pfn);
	preempt_enable();
}
