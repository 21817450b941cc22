/*
 * Local kmaps: per-thread, stack-ordered, preemptible mappings of single
 * pages in fixmap slots (the scheme of Linux's kmap_local, Gleixner 2020).
 *
 * The thread owns the stack: current->kmap_ctrl.idx is its depth in slot
 * units and pteval[] remembers what each of its slots maps, so the
 * scheduler can take the slots down when the thread leaves the CPU and put
 * them back when it returns. Slot n lives at __fix_to_virt(FIX_KMAP_BEGIN + n).
 *
 * With CONFIG_DEBUG_HIGHMEM the stack advances two slots per map and the
 * skipped (even) slots stay empty: an access that runs off either end of a
 * mapping hits an unmapped guard page and aborts.
 */
#include <stdio.h>
#include <string.h>
#include <lokal/highmem-internal.h>
#include <lokal/sched.h>
#include <lokal/sched-internal.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

/* Deepest level a thread may reach: 16 maps in either configuration. */
#define KM_MAX_DEPTH    (KM_MAX_IDX - (KM_INCR - 1))

static inline unsigned long slot_vaddr(int idx)
{
	return __fix_to_virt(FIX_KMAP_BEGIN + idx);
}

/*
 * Each slot's PTE, looked up once: the switch path touches every slot a
 * thread holds, twice per switch, and the arch lookup has range checks.
 * (Linux keeps one pointer and indexes "kmap_pte - idx"; a table makes no
 * assumption about how the arch lays out its fixmap entries.)
 */
static pte_t *slot_ptes[KM_MAX_IDX];

static inline pte_t *slot_pte(int idx)
{
	return slot_ptes[idx];
}

static inline bool is_guard_slot(int idx)
{
	return KM_INCR > 1 && (idx % KM_INCR) != KM_INCR - 1;
}

static inline bool in_fixmap_kmap(unsigned long addr)
{
	return addr >= slot_vaddr(FIX_KMAP_END - FIX_KMAP_BEGIN) &&
	       addr < slot_vaddr(0) + PAGE_SIZE;
}

static inline bool in_pkmap(unsigned long addr)
{
	return addr >= PKMAP_ADDR(0) && addr < PKMAP_ADDR(LAST_PKMAP);
}

#if CONFIG_KMAP_LAZY
/* What a lazy switch-out left in each slot; only that may be overwritten. */
static pte_t lazy_left[KM_MAX_IDX];
#endif

void kmap_local_init(void)
{
	for (int i = 0; i < KM_MAX_IDX; i++)
		slot_ptes[i] = virt_to_kpte(slot_vaddr(i));
#if CONFIG_KMAP_LAZY
	memset(lazy_left, 0, sizeof(lazy_left));
#endif
	kmap_defer_init();
}

/*
 * A compiler barrier, as Linux's barrier(). kmap_ctrl.idx (an int) and the
 * slot PTEs (unsigned long) are different types, so under strict aliasing
 * GCC may move the PTE accesses across the index update. An IRQ that maps
 * in between would then use the same slot: the index must say "taken"
 * before the slot is touched, and "free" only after it is empty.
 */
#define kmap_barrier()  __asm__ volatile("" ::: "memory")

static int kmap_local_idx_push(unsigned long pfn)
{
	struct thread *t = current;

	WARN_ON_ONCE(in_irq() && !arch_irqs_disabled());
	if (t->kmap_ctrl.idx + KM_INCR > KM_MAX_DEPTH)
		panic("kmap_local(pfn 0x%lx): thread '%s' already holds %d local kmaps "
		      "(the most recent at 0x%08lx); at most %d may be nested",
		      pfn, t->name, t->kmap_ctrl.idx / KM_INCR,
		      slot_vaddr(t->kmap_ctrl.idx - 1), KM_MAX_DEPTH / KM_INCR);
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

#if !CONFIG_KMAP_DEFER
/*
 * Install pteval in slot idx. A slot that is not empty means an unmap was
 * skipped (or, with KMAP_LAZY, a previous thread's map was left for reuse).
 */
static void kmap_local_install(int idx, unsigned long vaddr, pte_t pteval)
{
	pte_t *ptep = slot_pte(idx);
	pte_t old = *ptep;

#if CONFIG_KMAP_LAZY
	/* Left behind by a lazy switch-out: its lines were cleaned then. */
	if (old == lazy_left[idx])
		old = 0;
	lazy_left[idx] = 0;
#endif
	if (!pte_none(old))
		panic("kmap_local: slot %d (0x%08lx) for thread '%s' still maps pfn 0x%lx: "
		      "a local kmap was not unmapped", idx, vaddr, current->name,
		      pte_pfn(old));
	set_pte_ext(ptep, pteval);
	arch_kmap_local_post_map(vaddr, pteval);
}
#endif

#if CONFIG_DEBUG_HIGHMEM
/* The address at which thread t holds pfn in a local kmap, or 0. */
static unsigned long local_alias(const struct thread *t, unsigned long pfn)
{
	for (int i = 0; i < t->kmap_ctrl.idx; i++) {
		pte_t pteval = t->kmap_ctrl.pteval[i];

		if (!pte_none(pteval) && pte_pfn(pteval) == pfn)
			return slot_vaddr(i);
	}
	return 0;
}

/*
 * A new fixmap map of pfn must not be a second virtual alias of a page
 * already mapped elsewhere: on this VIVT cache the two would not see each
 * other's writes. Two cases the API cannot make coherent are diagnosed
 * here: a pfn map of a kmap()ed page, and an interrupt handler mapping a
 * page the thread it interrupted has mapped.
 */
static void check_no_alias(unsigned long pfn)
{
	const struct page *page = pfn_to_page(pfn);
	unsigned long held;

	if (page->virtual)
		panic("kmap_local_pfn(0x%lx) in thread '%s': the page is kmap()ed at %p, and a "
		      "second virtual alias is not coherent on this VIVT cache "
		      "(kmap_local_page() reuses the kmap address)",
		      pfn, current->name, page->virtual);
	if (in_irq() && (held = local_alias(current, pfn)))
		panic("kmap_local in an interrupt handler: pfn 0x%lx is mapped at 0x%08lx by the "
		      "interrupted thread '%s', and a second virtual alias is not coherent on "
		      "this VIVT cache", pfn, held, current->name);
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

void *__kmap_local_pfn_prot(unsigned long pfn, pgprot_t prot)
{
	unsigned long vaddr;
	pte_t pteval;
	int idx;

	if (!pfn_valid(pfn))
		panic("kmap_local_pfn(0x%lx): no such page frame (thread '%s')", pfn,
		      current->name);
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
	vaddr = slot_vaddr(idx);
	pteval = pfn_pte(pfn, prot);
#if CONFIG_KMAP_DEFER
	/* Recorded with the push: a switch-in from here on restores it. */
	current->kmap_ctrl.pteval[idx] = pteval;
	preempt_enable();
	kmap_defer_map(idx, pteval);
#else
	kmap_local_install(idx, vaddr, pteval);
	current->kmap_ctrl.pteval[idx] = pteval;
	preempt_enable();
#endif
	return (void *)vaddr;
}

void *__kmap_local_page_prot(struct page *page, pgprot_t prot)
{
	void *kmap;

	if (!PageHighMem(page))
		return page_address(page);
	/* Already kmap()ed: reuse that address rather than alias it. */
	kmap = arch_kmap_local_high_get(page);
	if (kmap)
		return kmap;
	return __kmap_local_pfn_prot(page_to_pfn(page), prot);
}

/* Tear down slot idx: lines out of the cache, PTE cleared, TLB entry gone. */
static void kmap_local_remove(unsigned long vaddr, pte_t *ptep)
{
	arch_kmap_local_pre_unmap(vaddr);
	pte_clear(ptep);
	arch_kmap_local_post_unmap(vaddr);
}

static void __attribute__((noreturn)) bad_unmap(unsigned long addr, const char *why)
{
	struct thread *t = current;

	if (t->kmap_ctrl.idx > 0)
		panic("kunmap_local(0x%08lx) in thread '%s': %s; the most recent local kmap "
		      "is 0x%08lx (unmap in reverse order of mapping)",
		      addr, t->name, why, slot_vaddr(t->kmap_ctrl.idx - 1));
	panic("kunmap_local(0x%08lx) in thread '%s': %s; the thread holds no local kmap",
	      addr, t->name, why);
}

void kunmap_local_indexed(const void *vaddr)
{
	unsigned long raw = (unsigned long)vaddr;
	unsigned long addr = raw & PAGE_MASK;
	int idx, slot;

	if (!in_fixmap_kmap(addr)) {
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
	 * Deferred: the index is the thread's own (a switch leaves it, an IRQ
	 * restores it), so the checks and the line work stay preemptible.
	 */
	if (!CONFIG_KMAP_DEFER)
		preempt_disable();
	idx = kmap_local_idx();
	if (slot != idx) {
		if (slot > idx)
			bad_unmap(raw, "that slot is not mapped");
		if (is_guard_slot(slot))
			bad_unmap(raw, "that is a guard page between kmap slots");
		bad_unmap(raw, "out of order");
	}
#if CONFIG_KMAP_DEFER
	kmap_defer_unmap(idx);          /* returns with preemption disabled */
#else
	kmap_local_remove(addr, slot_pte(idx));
#endif
	current->kmap_ctrl.pteval[idx] = 0;
	kmap_local_idx_pop();
	preempt_enable();
	migrate_enable();
}

/* What thread t keeps for slot i: 0 for a guard slot (or a hole, which is a bug). */
static pte_t saved_pte(const struct thread *t, int i)
{
	pte_t pteval = t->kmap_ctrl.pteval[i];

	if (is_guard_slot(i)) {
		WARN_ON_ONCE(!pte_none(pteval));
		return 0;
	}
	WARN_ON_ONCE(pte_none(pteval));
	return pteval;
}

/* Advance *i to t's next slot that holds a map; false past the last one. */
static bool next_kmap(const struct thread *t, int *i, pte_t *pteval)
{
	for (; *i < t->kmap_ctrl.idx; ++*i) {
		*pteval = saved_pte(t, *i);
		if (!pte_none(*pteval))
			return true;
	}
	return false;
}

void __kmap_local_sched_out(void)
{
	struct thread *t = current;
	pte_t pteval;
	int i;

	if (CONFIG_KMAP_DEFER)
		return;         /* slots, TLB entries and lines stay until someone needs them */
	for (i = 0; next_kmap(t, &i, &pteval); i++) {
		unsigned long addr = slot_vaddr(i);

#if CONFIG_KMAP_LAZY
		/* Keep PTE and TLB entry for a cheap return; the lines must go now. */
		arch_kmap_local_pre_unmap(addr);
		lazy_left[i] = pteval;
#else
		kmap_local_remove(addr, slot_pte(i));
#endif
	}
}

void __kmap_local_sched_in(void)
{
	struct thread *t = current;
	pte_t pteval;
	int i;

#if CONFIG_KMAP_DEFER
	kmap_defer_sched_in();
	return;
#endif
	for (i = 0; next_kmap(t, &i, &pteval); i++) {
		unsigned long addr = slot_vaddr(i);

#if CONFIG_KMAP_LAZY
		if (*slot_pte(i) == pteval) {
			lazy_left[i] = 0;
			continue;       /* still ours: PTE, walker copy and TLB are right */
		}
		lazy_left[i] = 0;
#endif
		set_pte_ext(slot_pte(i), pteval);
		arch_kmap_local_post_map(addr, pteval);
	}
}

void kmap_local_fork(struct thread *t)
{
#if CONFIG_KMAP_DEFER
	kmap_defer_forget(t);
#endif
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
			printf(" 0x%08lx (pfn 0x%lx)", slot_vaddr(i),
			       pte_pfn(t->kmap_ctrl.pteval[i]));
	printf("\n");
	panic("thread '%s' leaked %d local kmap(s), the most recent at 0x%08lx",
	      t->name, t->kmap_ctrl.idx / KM_INCR, slot_vaddr(t->kmap_ctrl.idx - 1));
}

const char *kmap_describe_fault(unsigned long addr, char *buf, unsigned long len)
{
	if (in_fixmap_kmap(addr)) {
		int slot = kmap_local_slot(addr);
		pte_t pte = *slot_pte(slot);

		if (is_guard_slot(slot))
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
