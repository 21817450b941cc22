/*
 * KMAP_DEFER: the deferred VIVT flush of local kmap slots (issue 14).
 *
 * A switch-out leaves the outgoing thread's slots as they are: PTE, TLB
 * entry and cache lines. That is safe because the ARM926 writes a dirty
 * line back to the physical address it keeps with the line, whatever the
 * PTE says by then, so a slot's lines only go wrong when
 *   - a different PTE goes into that slot (the next user would hit the old
 *     page's lines under the same virtual tag), or
 *   - the page gets a second address (the two aliases would not see each
 *     other's writes), or
 *   - something outside the CPU reads the page, or it is freed.
 * Each of those calls slot_flush() on the slots concerned, which writes the
 * lines back, drops them and empties the slot. So a slot is either empty or
 * "resident" (it holds a PTE, and may hold lines of that page): there is no
 * third state to get wrong.
 *
 * kmap_slots_owner is the thread for which, as long as it stays set,
 * every one of its maps is resident in its slot and no other slot holds
 * one of its pages: its switch-in has nothing to do. Every slot emptied
 * (slot_empty()) moves the claim to the caller (thread context, whose own maps are all
 * resident while it runs) or clears it (interrupt context, which may have
 * landed inside a switch-in that has not finished). A map made by a
 * thread takes the claim too (its other maps are resident, since it runs);
 * one made by an interrupt handler leaves it alone: it lands in a slot
 * nobody's claim covers, and is gone before the handler returns.
 *
 * Interrupts stay on here, as in the eager code (seed 007). Why an IRQ
 * that maps and unmaps in the middle of any of these steps is harmless:
 *   - it pushes above the interrupted thread's kmap index and unmaps before
 *     it returns, so it never leaves a resident slot behind, and the slots
 *     below that index which hold the thread's own PTE (the "current" test
 *     below: index and recorded pteval both match) are never touched;
 *   - everything else it may flush is a slot the interrupted code was about
 *     to flush or overwrite anyway, and every step of slot_flush() is
 *     idempotent: cleaning lines that are gone, clearing a PTE that is
 *     clear and invalidating a TLB entry twice change nothing;
 *   - a map records its pteval before it looks at its slot, so from then on
 *     an IRQ sees the slot as the thread's and keeps its hands off it;
 *   - the resident mask is a superset of the resident slots: a bit is set
 *     before the PTE is written and cleared after it is gone (with
 *     interrupts off for the read-modify-write), and every reader checks
 *     the PTE itself.
 *
 * Preemption: the 128 line operations of a thread's own map and unmap run
 * with preemption on, so a wake-up does not wait for them. A switch in the
 * middle shows in current->switches_in: the thread then looks at its slot
 * again (its switch-in may have put the map back, or another thread may
 * have left a page there) and cleans again; only the PTE steps run with
 * preemption off. A map's pteval is recorded together with the index push,
 * so a switch-in from then on restores it like any other map.
 */
#include <lokal/highmem-internal.h>
#include <lokal/sched.h>
#include <lokal/preempt.h>
#include <asm/irqflags.h>

static pte_t *slot_ptep[KM_MAX_IDX];

static inline unsigned long slot_va(int i)
{
	return __fix_to_virt(FIX_KMAP_BEGIN + i);
}

/* True if slot i holds the running thread's own map i (its index and pteval). */
static inline bool slot_is_current(int i, pte_t have)
{
	return i < current->kmap_ctrl.idx && current->kmap_ctrl.pteval[i] == have;
}

#if CONFIG_KMAP_DEFER
_Static_assert(KM_INCR == 1, "KMAP_DEFER has no guard slots (DEBUG_HIGHMEM forces the eager scheme)");
_Static_assert(KM_MAX_IDX <= 32, "one bit per slot in resident_mask");

struct thread *kmap_slots_owner;
static unsigned int resident_mask;
static struct kmap_defer_stats dstats;

static void mask_update(int i, bool set)
{
	unsigned long flags = arch_local_irq_save();

	if (set)
		resident_mask |= 1u << i;
	else
		resident_mask &= ~(1u << i);
	arch_local_irq_restore(flags);
}

/* Slot i loses its PTE and TLB entry; its lines are already gone. */
static void slot_empty(int i)
{
	pte_clear(slot_ptep[i]);
	arch_kmap_local_post_unmap(slot_va(i));
	mask_update(i, false);
	kmap_slots_owner = in_irq() ? NULL : current;
}

/* Write slot i's lines back, drop them, empty the slot (preemption stays off). */
static void slot_flush(int i)
{
	arch_kmap_local_pre_unmap(slot_va(i));
	slot_empty(i);
}

/*
 * The same for a map of the running thread, with its preemption as the
 * caller has it (on, for a kmap_local_page() in thread context): the 128
 * line operations may be preempted, so a more urgent thread woken
 * meanwhile need not wait for them. A thread that ran meanwhile may have
 * put lines back under the address, or changed the slot: then the slot is
 * left as it is, and the caller looks again.
 */
static void flush_preemptible(int i, pte_t have, unsigned long *count)
{
	unsigned long seen = current->switches_in;

	arch_kmap_local_pre_unmap(slot_va(i));
	preempt_disable();
	if (current->switches_in == seen && *slot_ptep[i] == have) {
		slot_empty(i);
		(*count)++;
	}
	preempt_enable();
}

/*
 * Only ever into an empty slot, whose TLB entry went when it was emptied,
 * so the invalidate below is belt and braces on this scheme; it is kept as
 * the map hook every scheme runs (and where the scheduler tests land an
 * interrupt inside a switch-in).
 */
static void slot_install(int i, pte_t pteval)
{
	mask_update(i, true);
	set_pte_ext(slot_ptep[i], pteval);
	arch_kmap_local_post_map(slot_va(i), pteval);
}

/* Flush every resident slot in mask that holds pfn and is not the running thread's. */
static void flush_page_in(unsigned int mask, unsigned long pfn)
{
	while (mask) {
		int i = __builtin_ctz(mask);
		pte_t have = *slot_ptep[i];

		mask &= mask - 1;
		if (pte_none(have) || pte_pfn(have) != pfn || slot_is_current(i, have))
			continue;
		slot_flush(i);
		dstats.alias_flushes++;
	}
}

void kmap_defer_flush_page(unsigned long pfn)
{
	flush_page_in(resident_mask, pfn);
}

/* Slot idx must be empty, or hold pteval already, before pteval goes in. */
static void make_room(int idx, pte_t pteval)
{
	pte_t have = *slot_ptep[idx];

	/* Another page's lines under this very address. */
	if (!pte_none(have) && have != pteval)
		flush_preemptible(idx, have, &dstats.reuse_flushes);
}

/* No slot but idx may hold pfn: it would be a second alias of the page. */
static void drop_aliases(int idx, unsigned long pfn)
{
	unsigned int mask = resident_mask & ~(1u << idx);

	for (; mask; mask &= mask - 1) {
		int i = __builtin_ctz(mask);
		pte_t have = *slot_ptep[i];

		if (pte_none(have) || pte_pfn(have) != pfn || slot_is_current(i, have))
			continue;
		flush_preemptible(i, have, &dstats.alias_flushes);
	}
}

void kmap_defer_map(int idx, pte_t pteval)
{
	unsigned long seen;
	pte_t have;

	/*
	 * Until a pass runs without the thread leaving the CPU: a thread that
	 * ran meanwhile may have left a page in the slot or made an alias.
	 */
	for (;;) {
		seen = current->switches_in;
		make_room(idx, pteval);
		drop_aliases(idx, pte_pfn(pteval));
		preempt_disable();
		if (current->switches_in == seen)
			break;
		preempt_enable();
	}
	have = *slot_ptep[idx];
	if (have == pteval)
		dstats.shared_maps++;   /* the same page left here: its lines are its own */
	else
		slot_install(idx, pteval);
	if (!in_irq())
		kmap_slots_owner = current;
	preempt_enable();
}

void kmap_defer_unmap(int idx)
{
	unsigned long seen;

	/* Preemptible line work; again if a thread ran meanwhile (it may have put lines back). */
	for (;;) {
		seen = current->switches_in;
		arch_kmap_local_pre_unmap(slot_va(idx));
		preempt_disable();
		if (current->switches_in == seen)
			break;
		preempt_enable();
	}
	slot_empty(idx);
	dstats.unmap_flushes++;
}

/* True if one of t's maps is of the page pteval maps. */
static bool holds_page(const struct thread *t, pte_t pteval)
{
	for (int j = 0; j < t->kmap_ctrl.idx; j++)
		if (pte_pfn(t->kmap_ctrl.pteval[j]) == pte_pfn(pteval))
			return true;
	return false;
}

/* Flush every slot above t's stack that holds one of t's pages: t's return makes them aliases. */
static void flush_aliases_of(const struct thread *t)
{
	unsigned int above = resident_mask & ~((1u << t->kmap_ctrl.idx) - 1);

	for (; above; above &= above - 1) {
		int i = __builtin_ctz(above);
		pte_t have = *slot_ptep[i];

		if (pte_none(have) || !holds_page(t, have))
			continue;
		slot_flush(i);
		dstats.alias_flushes++;
	}
}

void kmap_defer_sched_in(void)
{
	struct thread *t = current;

	if (kmap_slots_owner == t)
		return;
	dstats.walks++;
	flush_aliases_of(t);
	for (int i = 0; i < t->kmap_ctrl.idx; i++) {
		pte_t want = t->kmap_ctrl.pteval[i], have = *slot_ptep[i];

		if (have == want)
			continue;
		if (!pte_none(have)) {
			slot_flush(i);
			dstats.reuse_flushes++;
		}
		slot_install(i, want);
	}
	kmap_slots_owner = t;
}

void kmap_defer_forget(const struct thread *t)
{
	if (kmap_slots_owner == t)
		kmap_slots_owner = NULL;
}

void kmap_defer_get_stats(struct kmap_defer_stats *st)
{
	*st = dstats;
}
#endif

void kmap_defer_init(void)
{
	for (int i = 0; i < KM_MAX_IDX; i++)
		slot_ptep[i] = virt_to_kpte(slot_va(i));
#if CONFIG_KMAP_DEFER
	kmap_slots_owner = NULL;
	resident_mask = 0;
	__builtin_memset(&dstats, 0, sizeof(dstats));
#endif
}

void kmap_flush_deferred(struct page *page)
{
	unsigned long pfn = page_to_pfn(page);

	if (!PageHighMem(page))
		return;         /* never in a kmap slot: the direct map is its only address */
	kmap_defer_flush_page(pfn);
	for (int i = 0; i < KM_MAX_IDX; i++) {
		pte_t have = *slot_ptep[i];

		/* The caller's own map stays; only its lines go. */
		if (!pte_none(have) && pte_pfn(have) == pfn && slot_is_current(i, have))
			arch_kmap_local_pre_unmap(slot_va(i));
	}
}
