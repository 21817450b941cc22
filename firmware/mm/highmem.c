/*
 * Local kmaps: per-thread, stack-ordered, preemptible mappings of single
 * pages in fixmap slots (the scheme of Linux's kmap_local, Gleixner 2020).
 *
 * The thread owns the stack: current->kmap_ctrl.idx is its depth in slot
 * units and pteval[] remembers what each of its slots maps, so the slots
 * can be given to other threads while it is switched out and its maps put
 * back when it returns. What happens to the slots at a switch is the
 * scheme's business (kmap_scheme.h): this file holds what every scheme
 * shares: the index stack, the diagnostics, the kmap_high_get fallback
 * and the lowmem path.
 *
 * With CONFIG_DEBUG_HIGHMEM the stack advances two slots per map and the
 * skipped (even) slots stay empty: an access that runs off either end of a
 * mapping hits an unmapped guard page and aborts.
 */
#include <stdio.h>
#include <string.h>
#include "kmap_scheme.h"
#include <lokal/sched.h>
#include <lokal/sched-internal.h>
#include <lokal/bug.h>
#include <lokal/dma-mapping.h>
#include <asm/irqflags.h>

/* Deepest level a thread may reach: 16 maps in either configuration. */
#define KM_MAX_DEPTH    (KM_MAX_IDX - (KM_INCR - 1))

static inline bool in_pkmap(unsigned long addr)
{
	return addr >= PKMAP_ADDR(0) && addr < PKMAP_ADDR(LAST_PKMAP);
}

void kmap_local_init(void)
{
	kmap_slots_init();
	kmap_scheme_init();
}


static int kmap_local_idx_push(unsigned long pfn)
{
	struct thread *t = current;

	WARN_ON_ONCE(in_irq() && !arch_irqs_disabled());
	if (t->kmap_ctrl.idx + KM_INCR > KM_MAX_DEPTH)
		panic("kmap_local(pfn 0x%lx): thread '%s' already holds %d local kmaps "
		      "(the most recent at 0x%08lx); at most %d may be nested",
		      pfn, t->name, t->kmap_ctrl.idx / KM_INCR,
		      kmap_slot_va(t->kmap_ctrl.idx - 1), KM_MAX_DEPTH / KM_INCR);
	t->kmap_ctrl.idx += KM_INCR;
	kmap_barrier();
	return t->kmap_ctrl.idx - 1;
}

static inline int kmap_local_idx(void)
{
	return current->kmap_ctrl.idx - 1;
}

static inline void kmap_local_idx_pop(void)
{
	kmap_barrier();
	current->kmap_ctrl.idx -= KM_INCR;
	BUG_ON(current->kmap_ctrl.idx < 0);
}

#if CONFIG_DEBUG_HIGHMEM
/* The address at which thread t holds pfn in a local kmap, or 0. */
static unsigned long local_alias(const struct thread *t, unsigned long pfn)
{
	for (int i = 0; i < t->kmap_ctrl.idx; i++) {
		pte_t pteval = t->kmap_ctrl.pteval[i];

		if (!pte_none(pteval) && pte_pfn(pteval) == pfn)
			return kmap_slot_va(i);
	}
	return 0;
}

/*
 * A pfn map of a kmap()ed page would be a second virtual alias that the
 * API cannot make coherent on this VIVT cache (kmap_local_page() reuses
 * the kmap address instead).
 */
static void check_no_alias(unsigned long pfn)
{
	const struct page *page = pfn_to_page(pfn);

	if (page->virtual)
		panic("kmap_local_pfn(0x%lx) in thread '%s': the page is kmap()ed at %p, and a "
		      "second virtual alias is not coherent on this VIVT cache "
		      "(kmap_local_page() reuses the kmap address)",
		      pfn, current->name, page->virtual);
}

void kmap_check_no_local_alias(const struct page *page)
{
	unsigned long pfn = page_to_pfn(page), held;
	struct list_head *pos;

	list_for_each(pos, &all_threads) {
		const struct thread *t = list_entry(pos, struct thread, all);

		if ((held = local_alias(t, pfn)))
			panic("kmap(pfn 0x%lx) in thread '%s': thread '%s' holds the page in a "
			      "local kmap at 0x%08lx, and a second virtual alias is not coherent "
			      "on this VIVT cache", pfn, current->name, t->name, held);
	}
}
#endif

/*
 * The running context's own slots below idx that hold pfn: an interrupt
 * handler mapping a page the thread it interrupted has mapped, or a
 * nested map of a page. The new address reads RAM, so the older alias's
 * dirty lines go there first, and its lines are dropped so that, once the
 * newer map is unmapped (which cleans what it wrote), the older one reads
 * RAM again. Maps nest strictly, so the older alias is not used while the
 * newer one lives: an interrupted thread cannot run, and a thread that
 * maps a page twice must use the newer address until it unmaps it.
 * Another thread's slots holding the page are the scheme's to flush.
 */
static void flush_own_alias(int idx, unsigned long pfn)
{
	const struct thread *t = current;

	for (int i = 0; i < idx; i++) {
		pte_t pteval = t->kmap_ctrl.pteval[i];

		if (!pte_none(pteval) && pte_pfn(pteval) == pfn)
			arch_kmap_local_pre_unmap(kmap_slot_va(i));
	}
}

void *__kmap_local_pfn_prot(unsigned long pfn, pgprot_t prot)
{
	unsigned long vaddr;
	pte_t pteval;
	int idx;

	if (!pfn_valid(pfn))
		panic("kmap_local_pfn(0x%lx): no such page frame (thread '%s')", pfn,
		      current->name);
#if CONFIG_DEBUG_HIGHMEM
	dma_check_cpu_access(pfn, "kmap_local_pfn");
#endif
	/*
	 * A lowmem frame already has its direct-map address. A slot would be a
	 * second virtual alias, which this VIVT cache keeps incoherent with the
	 * first: a dirty or stale direct-map line would win (Linux's ARM code
	 * returned page_address() here for the same reason).
	 */
	if (pfn < LOWMEM_PFN_END)
		return page_address(pfn_to_page(pfn));
#if CONFIG_DEBUG_HIGHMEM
	check_no_alias(pfn);
#endif
	/* Pin to this CPU so the address stays right across preemption. */
	migrate_disable();
	preempt_disable();
	idx = kmap_local_idx_push(pfn);
	vaddr = kmap_slot_va(idx);
	pteval = pfn_pte(pfn, prot);
	/* Recorded with the push: a switch-in from here on restores it. */
	current->kmap_ctrl.pteval[idx] = pteval;
	kmap_scheme_map(idx, pteval);
	preempt_enable();
	if (idx)
		flush_own_alias(idx, pfn);
	return (void *)vaddr;
}

void *__kmap_local_page_prot(struct page *page, pgprot_t prot)
{
	void *kmap;

#if CONFIG_DEBUG_HIGHMEM
	dma_check_cpu_access(page_to_pfn(page), "kmap_local_page");
#endif
	if (!PageHighMem(page))
		return page_address(page);
	/* Already kmap()ed: reuse that address rather than alias it. */
	kmap = arch_kmap_local_high_get(page);
	if (kmap)
		return kmap;
	return __kmap_local_pfn_prot(page_to_pfn(page), prot);
}

static void __attribute__((noreturn)) bad_unmap(unsigned long addr, const char *why)
{
	struct thread *t = current;

	if (t->kmap_ctrl.idx > 0)
		panic("kunmap_local(0x%08lx) in thread '%s': %s; the most recent local kmap "
		      "is 0x%08lx (unmap in reverse order of mapping)",
		      addr, t->name, why, kmap_slot_va(t->kmap_ctrl.idx - 1));
	panic("kunmap_local(0x%08lx) in thread '%s': %s; the thread holds no local kmap",
	      addr, t->name, why);
}

void kunmap_local_indexed(const void *vaddr)
{
	unsigned long raw = (unsigned long)vaddr;
	unsigned long addr = raw & PAGE_MASK;
	int idx, slot;

	if (!kmap_local_addr((const void *)addr)) {
		if (is_mem_map_pointer(vaddr))
			panic("kunmap_local(%p) in thread '%s': that is a struct page (pfn 0x%lx), "
			      "pass the address the map call returned",
			      vaddr, current->name,
			      page_to_pfn((const struct page *)
					  ((uintptr_t)mem_map + ((uintptr_t)vaddr - (uintptr_t)mem_map) /
					   sizeof(struct page) * sizeof(struct page))));
		if (in_pkmap(addr)) {
			/* Obtained through the kmap_high_get() fallback. */
			pte_t pte = pkmap_page_table[PKMAP_NR(addr)];

			if (pte_none(pte))
				panic("kunmap_local(0x%08lx) in thread '%s': pkmap slot %lu is not "
				      "mapped", raw, current->name, PKMAP_NR(addr));
			kunmap_high(pte_page(pte));
			return;
		}
		if (raw >= (unsigned long)PAGE_OFFSET && raw < (unsigned long)LOWMEM_END)
			return;         /* a lowmem page: nothing was mapped */
		panic("kunmap_local(0x%08lx) in thread '%s': not an address a kmap call returns",
		      raw, current->name);
	}

	slot = kmap_local_slot(addr);
	/*
	 * The index is the thread's own (a switch leaves it, an interrupt
	 * restores it), so the checks need no preempt_disable().
	 */
	idx = kmap_local_idx();
	if (slot != idx) {
		if (slot > idx)
			bad_unmap(raw, "that slot is not mapped");
		if (kmap_slot_is_guard(slot))
			bad_unmap(raw, "that is a guard page between kmap slots");
		bad_unmap(raw, "out of order");
	}
	kmap_scheme_unmap(idx);         /* returns with preemption disabled */
	current->kmap_ctrl.pteval[idx] = 0;
	kmap_local_idx_pop();
	preempt_enable();
	migrate_enable();
}

void kmap_local_fork(struct thread *t)
{
	kmap_local_forget(t);
	if (WARN_ON_ONCE(t->kmap_ctrl.idx))
		memset(&t->kmap_ctrl, 0, sizeof(t->kmap_ctrl));
	else
		memset(t->kmap_ctrl.pteval, 0, sizeof(t->kmap_ctrl.pteval));
}

void kmap_assert_nomap(struct thread *t)
{
	int i;

	if (!t->kmap_ctrl.idx)
		return;
	printf("\nkmap_local leak: thread '%s' holds %d local kmap(s):", t->name,
	       t->kmap_ctrl.idx / KM_INCR);
	for (i = 0; i < t->kmap_ctrl.idx; i++)
		if (!pte_none(t->kmap_ctrl.pteval[i]))
			printf(" 0x%08lx (pfn 0x%lx)", kmap_slot_va(i),
			       pte_pfn(t->kmap_ctrl.pteval[i]));
	printf("\n");
	panic("thread '%s' leaked %d local kmap(s), the most recent at 0x%08lx",
	      t->name, t->kmap_ctrl.idx / KM_INCR, kmap_slot_va(t->kmap_ctrl.idx - 1));
}

const char *kmap_describe_fault(unsigned long addr, char *buf, unsigned long len)
{
	if (kmap_local_addr((const void *)addr)) {
		int slot = kmap_local_slot(addr);
		pte_t pte = *kmap_slot_pte(slot);

		if (kmap_slot_is_guard(slot))
			snprintf(buf, len, "kmap_local guard page, slot %d: ran off a local kmap", slot);
		else if (pte_none(pte))
			snprintf(buf, len, "kmap_local slot %d, not mapped", slot);
		else
			snprintf(buf, len, "kmap_local slot %d, maps pfn 0x%lx", slot, pte_pfn(pte));
		return buf;
	}
	if (in_pkmap(addr)) {
		unsigned long nr = PKMAP_NR(addr);

		if (pte_none(pkmap_page_table[nr]))
			snprintf(buf, len, "pkmap slot %lu, not mapped", nr);
		else
			snprintf(buf, len, "pkmap slot %lu, maps pfn 0x%lx", nr,
				 pte_pfn(pkmap_page_table[nr]));
		return buf;
	}
	return NULL;
}

void kmap_flush_deferred(struct page *page)
{
	unsigned long pfn = page_to_pfn(page);
	struct thread *me = current;

	if (!PageHighMem(page))
		return;         /* never in a kmap slot: the direct map is its only address */
	kmap_local_flush_page(pfn);
	/* The caller's own maps stay; only their lines go. */
	for (int i = 0; i < me->kmap_ctrl.idx; i++) {
		pte_t pteval = me->kmap_ctrl.pteval[i];

		if (!pte_none(pteval) && pte_pfn(pteval) == pfn)
			arch_kmap_local_pre_unmap(kmap_slot_va(i));
	}
}
