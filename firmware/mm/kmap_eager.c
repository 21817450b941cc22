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
 */
#include "kmap_scheme.h"
#include <lokal/sched.h>
#include <lokal/bug.h>

/* Lines out of the cache, PTE cleared, TLB entry gone. */
static void slot_remove(int idx)
{
	unsigned long va = kmap_slot_va(idx);

	arch_kmap_local_pre_unmap(va);
	pte_clear(kmap_slot_pte(idx));
	arch_kmap_local_post_unmap(va);
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
}

void kmap_scheme_map(int idx, pte_t pteval)
{
	pte_t old = *kmap_slot_pte(idx);

	/* Only a skipped unmap leaves a slot above the running thread's stack in use. */
	if (!pte_none(old))
		panic("kmap_local: slot %d (0x%08lx) for thread '%s' still maps pfn 0x%lx: "
		      "a local kmap was not unmapped", idx, kmap_slot_va(idx), current->name,
		      pte_pfn(old));
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
 * it, on slots that are empty, and is gone before it returns.
 */
void kmap_local_sched_out(struct thread *prev)
{
	for (int i = 0; i < prev->kmap_ctrl.idx; i++)
		if (!pte_none(saved_pte(prev, i)))
			slot_remove(i);
}

void kmap_local_sched_in(struct thread *next)
{
	for (int i = 0; i < next->kmap_ctrl.idx; i++) {
		pte_t pteval = saved_pte(next, i);

		if (!pte_none(pteval))
			slot_install(i, pteval);
	}
}

void kmap_local_forget(struct thread *t)
{
	set_switch_work(t, false);
}

/* A switched-out thread leaves no slot behind: nothing but the caller's own maps to flush. */
void kmap_local_flush_page(unsigned long pfn)
{
	(void)pfn;
}
