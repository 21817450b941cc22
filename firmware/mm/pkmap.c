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
 * Exclusion, on one CPU, never holds preemption or interrupts off for
 * work that grows with LAST_PKMAP or with the cache (a real-time bound):
 *   - among threads, pkmap_lock (a mutex, so with priority inheritance)
 *     is held across anything that fills slots (the search, the
 *     recycling), so only one thread at a time gives a slot a page. The
 *     holder can be preempted anywhere; a more urgent thread that only
 *     needs a page already mapped (kmap_high_get(), a second kmap() of the
 *     same page) or a kunmap() never waits for it;
 *   - against everyone else (interrupt handlers, which reach
 *     kmap_high_get() and kunmap_high() through kmap_local_page()/
 *     kunmap_local(), and threads that take or drop a reference), each
 *     count change and each slot's "still unused? then free it"
 *     test-and-clear runs with interrupts off, a batch of at most
 *     PKMAP_BATCH slots at a time.
 * The line work (the whole-cache flush, a page's flush) runs with
 * interrupts on. A slot whose lines are being flushed while nobody holds
 * it is "armed" first; whoever takes a reference disarms it, since it may
 * write through the slot after its lines went. A slot is freed only if it
 * is still armed and still unheld when interrupts are off again; a
 * disarmed one waits for the next flush.
 */
#include <string.h>
#include <lokal/highmem-internal.h>
#include <lokal/sched.h>
#include <lokal/wait.h>
#include <lokal/mutex.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

/* Slots tested and freed per interrupts-off step of the recycling. */
#define PKMAP_BATCH 4

static int pkmap_count[LAST_PKMAP];
static bool pkmap_armed[LAST_PKMAP];
static unsigned int last_pkmap_nr;
static unsigned long pkmap_releases;    /* kunmap()s that left a slot unheld */
static struct wait_queue pkmap_map_wait;
static struct mutex pkmap_lock;         /* who may fill slots: see above */

void kmap_pkmap_init(void)
{
	memset(pkmap_count, 0, sizeof(pkmap_count));
	memset(pkmap_armed, 0, sizeof(pkmap_armed));
	last_pkmap_nr = 0;
	pkmap_releases = 0;
	init_waitqueue(&pkmap_map_wait);
	mutex_init(&pkmap_lock);
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

/* The page's pkmap address with one more reference, or NULL if it has none. */
static void *pkmap_get(struct page *page)
{
	unsigned long flags = arch_local_irq_save();
	void *vaddr = page->virtual;

	if (vaddr) {
		unsigned int nr = PKMAP_NR(vaddr);

		BUG_ON(pkmap_count[nr] < 1);
		pkmap_count[nr]++;
		pkmap_armed[nr] = false;        /* the holder may write after a flush began */
	}
	arch_local_irq_restore(flags);
	return vaddr;
}

/*
 * Free every slot nobody holds. pkmap_lock held, preemptible. Lines
 * first (while the PTEs still exist, the cache can write dirty
 * data back to the right page), then the PTEs, then the TLB.
 */
static void flush_all_zero_pkmaps(void)
{
	bool need_flush = false;
	unsigned int i, end;

	/*
	 * Arm every unheld slot. No interrupts off: whoever takes a
	 * reference from here on disarms the slot, and a slot is freed below
	 * only if it is still armed.
	 */
	for (i = 0; i < LAST_PKMAP; i++)
		pkmap_armed[i] = pkmap_count[i] == 1;
	flush_cache_kmaps();
	for (i = 0; i < LAST_PKMAP; i = end) {
		unsigned long flags = arch_local_irq_save();

		for (end = i + PKMAP_BATCH; i < end; i++) {
			struct page *page;

			if (!pkmap_armed[i])
				continue;
			pkmap_armed[i] = false;
			if (pkmap_count[i] != 1)
				continue;
			pkmap_count[i] = 0;
			BUG_ON(pte_none(pkmap_page_table[i]));
			page = pte_page(pkmap_page_table[i]);
			pte_clear(&pkmap_page_table[i]);
			set_page_address(page, NULL);
			need_flush = true;
		}
		arch_local_irq_restore(flags);
	}
	/* Nobody reaches a freed slot's address before this thread hands it out again. */
	if (need_flush)
		flush_tlb_kmaps();
}

void __kmap_flush_unused(void)
{
	mutex_lock(&pkmap_lock);
	flush_all_zero_pkmaps();
	mutex_unlock(&pkmap_lock);
}

/*
 * Give page a slot and return its address, with one reference for the
 * caller. pkmap_lock held; sleeps (without it) while every slot is held.
 */
static void *map_new_virtual(struct page *page)
{
	unsigned long flags, releases;
	unsigned int count;
	bool unheld;
	void *vaddr;

again:
	releases = pkmap_releases;
	count = LAST_PKMAP;
	unheld = false;
	for (;;) {
		last_pkmap_nr = (last_pkmap_nr + 1) & LAST_PKMAP_MASK;
		if (last_pkmap_nr == 0) {
			flush_all_zero_pkmaps();
			count = LAST_PKMAP;
			unheld = false;
		}
		/* Only pkmap_lock's holder fills a free slot: this thread. */
		if (pkmap_count[last_pkmap_nr] == 0)
			break;
		unheld |= pkmap_count[last_pkmap_nr] == 1;
		if (--count)
			continue;
		/* Unheld slots an interrupt handler used during the flush: flush again. */
		if (unheld) {
			flush_all_zero_pkmaps();
			count = LAST_PKMAP;
			unheld = false;
			continue;
		}

		/* Every slot is held: wait for a kunmap(). */
		if (!scheduler_running())
			panic("kmap(pfn 0x%lx): all %u pkmap slots are held and no other thread "
			      "can release one yet (thread '%s'): too many kmap()s without kunmap()",
			      page_to_pfn(page), (unsigned int)LAST_PKMAP, current->name);
		/*
		 * Sleep without the lock: a thread that frees a slot through
		 * kmap_high_release() or kmap_flush_unused() needs it.
		 */
		mutex_unlock(&pkmap_lock);
		flags = arch_local_irq_save();
		/* A release the search may have missed (after the count above). */
		if (pkmap_releases == releases)
			sleep_on(&pkmap_map_wait);
		arch_local_irq_restore(flags);
		mutex_lock(&pkmap_lock);
		/* Someone may have mapped this very page meanwhile. */
		vaddr = pkmap_get(page);
		if (vaddr)
			return vaddr;
		goto again;
	}
	vaddr = (void *)PKMAP_ADDR(last_pkmap_nr);
	/*
	 * A new address for the page: a slot left holding it would be an
	 * alias. An interrupt handler that maps the page from here on gets a
	 * slot of its own and empties it before it returns.
	 */
	kmap_local_flush_page(page_to_pfn(page));
	flags = arch_local_irq_save();
	set_pte_ext(&pkmap_page_table[last_pkmap_nr], mk_pte(page, kmap_prot));
	pkmap_count[last_pkmap_nr] = 2;
	pkmap_armed[last_pkmap_nr] = false;
	set_page_address(page, vaddr);
	arch_local_irq_restore(flags);
	return vaddr;
}

void *kmap_high(struct page *page)
{
	void *vaddr;

	might_sleep();
	vaddr = pkmap_get(page);
	if (!vaddr) {
		mutex_lock(&pkmap_lock);
		/* Mapped by another thread while this one waited for the lock? */
		vaddr = pkmap_get(page);
		if (!vaddr) {
#if CONFIG_DEBUG_HIGHMEM
			kmap_check_no_local_alias(page);
#endif
			vaddr = map_new_virtual(page);
		}
		mutex_unlock(&pkmap_lock);
	}
	BUG_ON(pkmap_count[PKMAP_NR(vaddr)] < 2);
	return vaddr;
}

void *kmap_high_get(struct page *page)
{
	void *vaddr = pkmap_get(page);

	/*
	 * A slot may have taken the page again since the address was made.
	 * Our reference keeps the address; the caller has not used it yet.
	 */
	if (vaddr)
		kmap_local_flush_page(page_to_pfn(page));
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
		pkmap_releases++;
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
	unsigned long flags, vaddr;
	unsigned int nr;
	int users = 0;

	preempt_disable();
	for (;;) {
		flags = arch_local_irq_save();
		vaddr = (unsigned long)page->virtual;
		if (!vaddr)
			break;
		nr = PKMAP_NR(vaddr);
		users = pkmap_count[nr] - 1;
		if (users)
			break;
		pkmap_armed[nr] = true;
		arch_local_irq_restore(flags);
		/*
		 * The slot's lines go now, while the PTE still names this page:
		 * a dirty one written back by a later flush would land on the
		 * page's next owner.
		 */
		arch_kmap_local_pre_unmap(vaddr);
		flags = arch_local_irq_save();
		if (pkmap_armed[nr] && pkmap_count[nr] == 1 &&
		    (unsigned long)page->virtual == vaddr) {
			pte_clear(&pkmap_page_table[nr]);
			arch_kmap_local_post_unmap(vaddr);
			pkmap_count[nr] = 0;
			pkmap_armed[nr] = false;
			set_page_address(page, NULL);
			break;
		}
		/* Someone used the slot meanwhile: its lines may be back. */
		arch_local_irq_restore(flags);
	}
	arch_local_irq_restore(flags);
	preempt_enable();
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
	unsigned long flags = arch_local_irq_save();    /* one waiter per thread at most */
	struct list_head *pos;
	unsigned int n = 0;

	list_for_each(pos, &pkmap_map_wait.waiters)
		n++;
	arch_local_irq_restore(flags);
	return n;
}
