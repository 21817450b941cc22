/*
 * The deferred scheme: a switch leaves the outgoing thread's slots as they
 * are (PTE, TLB entry and cache lines), and a slot is flushed only when
 * something needs it.
 *
 * That is safe because the ARM926 writes a dirty line back to the physical
 * address it keeps with the line, whatever the PTE says by then, so a
 * slot's lines only go wrong when
 *   - a different PTE goes into that slot (the next user would hit the old
 *     page's lines under the same virtual tag), or
 *   - the page gets a second address (the two aliases would not see each
 *     other's writes), or
 *   - something other than the CPU reads or writes the page, or it is freed.
 * Each of those empties the slots concerned through one step,
 * flush_other_slot(). A slot is either empty or "resident" (it holds a
 * PTE, and may hold lines of that page): there is no third state.
 *
 * kmap_slots_owner is the thread for which, as long as it stays set, every
 * one of its maps is resident in its slot and no other slot holds one of
 * its pages: its switch-in has nothing to do. Emptying a slot moves the
 * claim to the running thread (whose own maps are all resident while it
 * runs), or clears it in an interrupt handler and in a switch-in walk
 * that has not finished: there the running thread's lower slots may still
 * hold other threads' pages, and an interrupt handler that took the
 * owner's shortcut would map such a page without flushing that slot (a
 * stale read, then the walk's flush writing the older lines over the
 * handler's). The walk claims the slots only once it is done. A thread's
 * own map takes the claim too; an interrupt handler's map leaves it alone:
 * it lands in a slot nobody's claim covers and is gone before the handler
 * returns. Each thread's switch_work.kmap_in says "not the owner, and
 * holds maps": the only test the scheduler makes.
 *
 * Interrupts stay on throughout, as in the eager scheme. An interrupt that
 * maps and unmaps in the middle of any step is harmless:
 *   - it pushes above the interrupted thread's index and unmaps before it
 *     returns, so it never leaves a resident slot behind, and the slots
 *     below that index that hold the thread's own PTE (slot_is_current():
 *     index and recorded pteval both match) are never touched;
 *   - whatever else it flushes is a slot the interrupted code was about to
 *     flush or overwrite anyway, and every step of a flush is idempotent;
 *   - the resident mask is a superset of the resident slots: a bit is set
 *     before the PTE is written and cleared after it is gone, and since an
 *     interrupt leaves only clears behind, a read-modify-write that it
 *     interrupts can at worst put back a bit of an empty slot. Every
 *     reader checks the PTE itself.
 *
 * Preemption: the 128 line operations of a flush run with preemption as
 * the caller has it, on in thread context, so a wake-up does not wait for
 * them. A switch in the middle shows in the thread's switch count, read as
 * a sequence count (switch_seq_begin/retry below): whoever ran
 * meanwhile may have written through the slot (its holder, switched back
 * in) or changed it, so the line work is done again; only the PTE steps,
 * which must see a slot nobody touched since its lines went, run with
 * preemption off.
 */
#include "kmap_scheme.h"
#include <lokal/sched.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>

_Static_assert(KM_INCR == 1, "the deferred scheme has no guard slots (DEBUG_HIGHMEM builds the eager one)");
_Static_assert(KM_MAX_IDX <= 32, "one bit per slot in resident_mask");

/*
 * The running thread's switch count read as a sequence count (Linux's
 * read_seqcount_begin() and read_seqcount_retry()), the scheduler being
 * the writer: work done between a begin and a retry that says false ran
 * with no other thread on the CPU in between. Read once each: the count
 * changes under the reader whenever it is preempted.
 */
static inline unsigned long switch_seq_begin(const struct thread *t)
{
	return *(const volatile unsigned long *)&t->switches_in;
}

static inline bool switch_seq_retry(const struct thread *t, unsigned long seq)
{
	return *(const volatile unsigned long *)&t->switches_in != seq;
}

static struct thread *kmap_slots_owner;
static unsigned int resident_mask;
static bool sched_in_walking;   /* kmap_local_sched_in() has not finished */
static struct kmap_defer_stats dstats;

/* True if slot i holds the running thread's own map i (its index and pteval). */
static inline bool slot_is_current(int i, pte_t have)
{
	return i < current->kmap_ctrl.idx && current->kmap_ctrl.pteval[i] == have;
}

/* t (or nobody) now owns the slots; the thread that loses them has work at its switch-in. */
static inline void set_owner(struct thread *t)
{
	struct thread *old = kmap_slots_owner;

	if (old == t)
		return;
	if (old)
		old->switch_work.kmap_in = old->kmap_ctrl.idx != 0;
	if (t)
		t->switch_work.kmap_in = false;
	kmap_slots_owner = t;
}

/* Slot i loses its PTE and TLB entry; its lines are already gone. */
static void slot_empty(int i)
{
	pte_clear(kmap_slot_pte(i));
	arch_kmap_local_post_unmap(kmap_slot_va(i));
	kmap_barrier();
	resident_mask &= ~(1u << i);
	set_owner(in_irq() || sched_in_walking ? NULL : current);
}

/* Only ever into an empty slot, whose TLB entry went when it was emptied. */
static void slot_install(int i, pte_t pteval)
{
	resident_mask |= 1u << i;
	kmap_barrier();
	set_pte_ext(kmap_slot_pte(i), pteval);
	arch_kmap_local_post_map(kmap_slot_va(i), pteval);
}

/*
 * Empty slot i, which holds have on another thread's behalf (or on
 * nobody's), unless it stops holding have meanwhile; the one step every
 * flush of a slot that is not the running thread's own goes through.
 * The line work runs with preemption as the caller has it. If another
 * thread ran meanwhile (the slot's holder, say, which writes through it
 * and so brings lines back), the line work is done again; the PTE is
 * cleared only with preemption off and nothing changed since the lines
 * went, so a slot counts as empty only when it is. *count goes up if this
 * call emptied the slot; a slot that held something else by then is left
 * to the caller, which looks again.
 */
static void flush_other_slot(int i, pte_t have, unsigned long *count)
{
	for (;;) {
		unsigned long seen = switch_seq_begin(current);

		arch_kmap_local_pre_unmap(kmap_slot_va(i));
		preempt_disable();
		if (*kmap_slot_pte(i) != have) {
			preempt_enable();
			return;
		}
		if (!switch_seq_retry(current, seen))
			break;
		preempt_enable();
	}
	slot_empty(i);
	(*count)++;
	preempt_enable();
}

/*
 * Empty every resident slot in mask, other than the running thread's own,
 * that holds pfn. Interrupt handlers only ever empty slots, so a pass in
 * which the thread never left the CPU has seen them all; after a switch
 * any slot may have changed, so look again.
 */
static void flush_page_in(unsigned int mask, unsigned long pfn, unsigned long *count)
{
	unsigned long seen;

	do {
		seen = switch_seq_begin(current);
		for (unsigned int m = resident_mask & mask; m; m &= m - 1) {
			int i = __builtin_ctz(m);
			pte_t have = *kmap_slot_pte(i);

			if (pte_none(have) || pte_pfn(have) != pfn || slot_is_current(i, have))
				continue;
			flush_other_slot(i, have, count);
		}
	} while (switch_seq_retry(current, seen));
}

void kmap_local_flush_page(unsigned long pfn)
{
	flush_page_in(~0u, pfn, &dstats.alias_flushes);
}

void kmap_scheme_init(void)
{
	kmap_slots_owner = NULL;
	resident_mask = 0;
	sched_in_walking = false;
	__builtin_memset(&dstats, 0, sizeof(dstats));
}

/*
 * The general case of a map: the slot may hold another page, or another
 * slot the page. Entered and left with preemption disabled. Out of line,
 * so that the common case stays a short leaf.
 */
static void map_slow(int idx, pte_t pteval) __attribute__((noinline));
static void map_slow(int idx, pte_t pteval)
{
	unsigned long pfn = pte_pfn(pteval);
	struct thread *me = current;
	unsigned long seen;
	pte_t have;

	/*
	 * Until the slot holds the page, not all of this thread's maps are
	 * resident: slot idx may still hold another thread's page while the
	 * work below runs with interrupts on, and a handler's map above idx
	 * must not take the owner's fast path past it (it would skip the
	 * flush of an alias there). The end of this function claims the
	 * slots back.
	 */
	if (!in_irq())
		set_owner(NULL);
	preempt_enable();
	/*
	 * Until a pass runs with the thread never leaving the CPU: a thread
	 * that ran meanwhile may have left a page in the slot or made an alias.
	 */
	for (;;) {
		seen = switch_seq_begin(me);
		have = *kmap_slot_pte(idx);
		/* Another page's lines under this very address. */
		if (!pte_none(have) && have != pteval)
			flush_other_slot(idx, have, &dstats.reuse_flushes);
		/* No slot but idx may hold the page: it would be a second alias. */
		flush_page_in(~(1u << idx), pfn, &dstats.alias_flushes);
		preempt_disable();
		if (!switch_seq_retry(me, seen))
			break;
		preempt_enable();
	}
	if (*kmap_slot_pte(idx) == pteval)
		dstats.shared_maps++;   /* the same page left here: its lines are its own */
	else
		slot_install(idx, pteval);
	if (!in_irq())
		set_owner(me);
}

void kmap_scheme_map(int idx, pte_t pteval)
{
	/*
	 * The common case, decided with preemption off as it came: the
	 * running thread owns the slots, so every resident slot below idx is
	 * one of its own maps, and none at or above idx is resident: the slot
	 * is empty and no other slot holds the page.
	 */
	if (__builtin_expect(kmap_slots_owner == current && !(resident_mask >> idx), 1)) {
		slot_install(idx, pteval);
		return;
	}
	map_slow(idx, pteval);
}

void kmap_scheme_unmap(int idx)
{
	struct thread *me = current;
	unsigned long seen;

	/* Preemptible line work; again if a thread ran meanwhile (it may have put lines back). */
	for (;;) {
		seen = switch_seq_begin(me);
		arch_kmap_local_pre_unmap(kmap_slot_va(idx));
		preempt_disable();
		if (__builtin_expect(!switch_seq_retry(me, seen), 1))
			break;
		preempt_enable();
	}
	slot_empty(idx);
}

void kmap_local_sched_out(struct thread *prev)
{
	(void)prev;             /* slots, TLB entries and lines stay until someone needs them */
}

/* True if one of t's maps is of the page pteval maps. */
static bool holds_page(const struct thread *t, pte_t pteval)
{
	for (int j = 0; j < t->kmap_ctrl.idx; j++)
		if (pte_pfn(t->kmap_ctrl.pteval[j]) == pte_pfn(pteval))
			return true;
	return false;
}

/*
 * Put back whichever of next's maps were flushed or replaced while it was
 * away, and flush any other slot holding one of its pages. Runs with the
 * preempt count raised (interrupts may be on), so flush_other_slot()
 * succeeds at the first pass unless an interrupt handler changed the slot.
 * next (already current) claims the slots only at the end: until then an
 * interrupt handler's map takes the general path, which flushes any slot
 * the walk has not reached yet that holds the handler's page.
 *
 * After each flush (the step whose length grows with the page) the
 * scheduler may stop the walk for a more urgent thread. Nobody owns the
 * slots then, so every map takes the general path, and next keeps its
 * switch-in work: its next switch-in walks again from the start, where
 * the slots already put back cost a compare each.
 */
void kmap_local_sched_in(struct thread *next)
{
	unsigned int above = resident_mask & ~((1u << next->kmap_ctrl.idx) - 1);

	dstats.walks++;
	sched_in_walking = true;
	/* Slots above next's stack that hold one of its pages: its return makes them aliases. */
	for (; above; above &= above - 1) {
		int i = __builtin_ctz(above);
		pte_t have = *kmap_slot_pte(i);

		if (pte_none(have) || !holds_page(next, have))
			continue;
		flush_other_slot(i, have, &dstats.alias_flushes);
		if (kmap_switch_point())
			goto cut;
	}
	for (int i = 0; i < next->kmap_ctrl.idx; i++) {
		pte_t want = next->kmap_ctrl.pteval[i], have = *kmap_slot_pte(i);

		if (have == want)
			continue;
		if (!pte_none(have)) {
			flush_other_slot(i, have, &dstats.reuse_flushes);
			if (kmap_switch_point())
				goto cut;
		}
		slot_install(i, want);
	}
	sched_in_walking = false;
	set_owner(next);
	return;
cut:
	dstats.walks_cut++;
	sched_in_walking = false;
	/* next is not the owner: its switch-in work stays (set when it lost the slots). */
	set_owner(NULL);
}

void kmap_local_forget(struct thread *t)
{
	if (kmap_slots_owner == t)
		kmap_slots_owner = NULL;
	t->switch_work.kmap_in = false;
}

void kmap_defer_get_stats(struct kmap_defer_stats *st)
{
	*st = dstats;
}
