/*
 * The pkmap pool: kmap()'s long-lived, globally visible mappings.
 *
 * LAST_PKMAP slots in one second-level table. pkmap_count[] per slot:
 *   0   free: no PTE, no TLB entry, no cache line at this address;
 *   1   still mapped (PTE, maybe cache lines and a TLB entry), nobody holds
 *       it: reusable only after the next flush of unused slots;
 *   n   n - 1 holders.
 * Released slots are recycled in batches when the search wraps around:
 * one whole-cache flush and one whole-TLB flush pay for the batch.
 *
 * The lock is "interrupts off" (one CPU): kmap_high_get() is reachable
 * from interrupt handlers through kmap_local_page().
 */
#include <string.h>
#include <lokal/highmem-internal.h>
#include <lokal/sched.h>
#include <lokal/wait.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

static int pkmap_count[LAST_PKMAP];
static unsigned int last_pkmap_nr;
static struct wait_queue pkmap_map_wait;

void kmap_pkmap_init(void)
{
	memset(pkmap_count, 0, sizeof(pkmap_count));
	last_pkmap_nr = 0;
	init_waitqueue(&pkmap_map_wait);
}

int pkmap_slot_count(unsigned int nr)
{
	BUG_ON(nr >= LAST_PKMAP);
	return pkmap_count[nr];
}

static void set_page_address(struct page *page, void *virtual)
{
	page->virtual = virtual;
}

/*
 * Free every slot nobody holds. Lines first (while the PTEs still exist,
 * the cache can write dirty data back to the right page), then the PTEs,
 * then the TLB.
 */
static void flush_all_zero_pkmaps(void)
{
	bool need_flush = false;
	unsigned int i;

	flush_cache_kmaps();
	for (i = 0; i < LAST_PKMAP; i++) {
		struct page *page;

		if (pkmap_count[i] != 1)
			continue;
		pkmap_count[i] = 0;
		BUG_ON(pte_none(pkmap_page_table[i]));
		page = pte_page(pkmap_page_table[i]);
		pte_clear(&pkmap_page_table[i]);
		set_page_address(page, NULL);
		need_flush = true;
	}
	if (need_flush)
		flush_tlb_kmaps();
}

void __kmap_flush_unused(void)
{
	unsigned long flags = arch_local_irq_save();

	flush_all_zero_pkmaps();
	arch_local_irq_restore(flags);
}

/* Called with interrupts off; returns with them off (sleeping meanwhile). */
static void *map_new_virtual(struct page *page)
{
	unsigned int count;
	void *vaddr;

again:
	count = LAST_PKMAP;
	for (;;) {
		last_pkmap_nr = (last_pkmap_nr + 1) & LAST_PKMAP_MASK;
		if (last_pkmap_nr == 0) {
			flush_all_zero_pkmaps();
			count = LAST_PKMAP;
		}
		if (pkmap_count[last_pkmap_nr] == 0)
			break;
		if (--count)
			continue;

		/* Every slot is held: wait for a kunmap(). */
		if (!scheduler_running())
			panic("kmap(pfn 0x%lx): all %u pkmap slots are held and no other thread "
			      "can release one yet (thread '%s'): too many kmap()s without kunmap()",
			      page_to_pfn(page), (unsigned int)LAST_PKMAP, current->name);
		sleep_on(&pkmap_map_wait);
		/* Someone may have mapped this very page while we slept. */
		if (page->virtual)
			return page->virtual;
		goto again;
	}
	vaddr = (void *)PKMAP_ADDR(last_pkmap_nr);
	/* A new address for the page: a slot left holding it would be an alias. */
	kmap_local_flush_page(page_to_pfn(page));
	set_pte_ext(&pkmap_page_table[last_pkmap_nr], mk_pte(page, kmap_prot));
	pkmap_count[last_pkmap_nr] = 1;
	set_page_address(page, vaddr);
	return vaddr;
}

void *kmap_high(struct page *page)
{
	unsigned long flags = arch_local_irq_save();
	void *vaddr = page->virtual;

	if (!vaddr) {
#if CONFIG_DEBUG_HIGHMEM
		kmap_check_no_local_alias(page);
#endif
		vaddr = map_new_virtual(page);
	}
	pkmap_count[PKMAP_NR(vaddr)]++;
	BUG_ON(pkmap_count[PKMAP_NR(vaddr)] < 2);
	arch_local_irq_restore(flags);
	return vaddr;
}

void *kmap_high_get(struct page *page)
{
	unsigned long flags = arch_local_irq_save();
	void *vaddr = page->virtual;

	if (vaddr) {
		BUG_ON(pkmap_count[PKMAP_NR(vaddr)] < 1);
		pkmap_count[PKMAP_NR(vaddr)]++;
		/* A slot may have taken the page again since the address was made. */
		kmap_local_flush_page(page_to_pfn(page));
	}
	arch_local_irq_restore(flags);
	return vaddr;
}

void kunmap_high(struct page *page)
{
	unsigned long flags = arch_local_irq_save();
	void *vaddr = page->virtual;
	bool need_wakeup = false;
	unsigned int nr;

	if (!vaddr)
		panic("kunmap(pfn 0x%lx): the page is not kmap()ed (thread '%s')",
		      page_to_pfn(page), current->name);
	nr = PKMAP_NR(vaddr);
	switch (--pkmap_count[nr]) {
	case 0:
		panic("kunmap(pfn 0x%lx) at %p: more kunmap() than kmap() calls, "
		      "the pkmap count went negative (thread '%s')",
		      page_to_pfn(page), vaddr, current->name);
	case 1:
		/* The slot becomes reusable at the next flush: tell waiters. */
		need_wakeup = !list_empty(&pkmap_map_wait.waiters);
		break;
	default:
		break;
	}
	arch_local_irq_restore(flags);
	if (need_wakeup)
		wake_up_all(&pkmap_map_wait);
}

int kmap_high_release(struct page *page)
{
	unsigned long flags = arch_local_irq_save();
	unsigned long vaddr = (unsigned long)page->virtual;
	unsigned int nr;
	int users = 0;

	if (vaddr) {
		nr = PKMAP_NR(vaddr);
		users = pkmap_count[nr] - 1;
		if (users == 0) {
			/*
			 * The slot's lines go now, while the PTE still names this
			 * page: a dirty one written back by a later flush would land
			 * on the page's next owner.
			 */
			arch_kmap_local_pre_unmap(vaddr);
			pte_clear(&pkmap_page_table[nr]);
			arch_kmap_local_post_unmap(vaddr);
			pkmap_count[nr] = 0;
			set_page_address(page, NULL);
		}
	}
	arch_local_irq_restore(flags);
	return users;
}

struct page *__kmap_to_page(const void *addr)
{
	unsigned long a = (unsigned long)addr;

	if (a >= PKMAP_ADDR(0) && a < PKMAP_ADDR(LAST_PKMAP)) {
		pte_t pte = pkmap_page_table[PKMAP_NR(a)];

		if (pte_none(pte))
			panic("kmap_to_page(%p): pkmap slot %lu is not mapped (thread '%s')",
			      addr, PKMAP_NR(a), current->name);
		return pte_page(pte);
	}
	if (a >= __fix_to_virt(FIX_KMAP_END) && a < __fix_to_virt(FIX_KMAP_BEGIN) + PAGE_SIZE) {
		pte_t pte = *virt_to_kpte(a & PAGE_MASK);

		if (pte_none(pte))
			panic("kmap_to_page(%p): kmap_local slot %d is not mapped (thread '%s')",
			      addr, kmap_local_slot(a), current->name);
		return pte_page(pte);
	}
	return virt_to_page(addr);
}

unsigned int pkmap_nr_waiters(void)
{
	struct list_head *pos;
	unsigned int n = 0;

	list_for_each(pos, &pkmap_map_wait.waiters)
		n++;
	return n;
}
