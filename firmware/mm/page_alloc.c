/*
 * Page frames, zones and the page allocator.
 *
 * One free list per zone, LIFO: the most recently freed page is handed out
 * first, which keeps a just-written page warm in the cache. Pages are never
 * split or merged (every request is one page), so a list is all it takes.
 */
#include <stdio.h>
#include <string.h>
#include <lokal/mm.h>
#include <lokal/highmem-internal.h>
#include <lokal/dma-mapping.h>
#include <lokal/sched.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

struct page mem_map[NR_PAGES];

struct zone {
	struct list_head free;
	unsigned long nr_free;
	unsigned long managed;
};

static struct zone zones[MAX_NR_ZONES];

static const char *const zone_names[MAX_NR_ZONES] = { "lowmem", "highmem" };

bool is_mem_map_pointer(const void *p)
{
	uintptr_t a = (uintptr_t)p;

	return a >= (uintptr_t)&mem_map[0] && a < (uintptr_t)&mem_map[NR_PAGES];
}

void *page_address(const struct page *page)
{
	if (PageHighMem(page))
		return page->virtual;
	return __va((phys_addr_t)page_to_pfn(page) << PAGE_SHIFT);
}

struct page *virt_to_page(const void *addr)
{
	phys_addr_t pa = __pa(addr);

	if ((uintptr_t)addr < (uintptr_t)PAGE_OFFSET || (uintptr_t)addr >= (uintptr_t)LOWMEM_END)
		panic("virt_to_page(%p): not a direct-map (lowmem) address", addr);
	return pfn_to_page(pa >> PAGE_SHIFT);
}

struct page *alloc_page(enum zone_type zone)
{
	struct zone *z;
	struct page *page = NULL;
	unsigned long flags;

	BUG_ON((unsigned int)zone >= MAX_NR_ZONES);
	z = &zones[zone];
	flags = arch_local_irq_save();
	if (!list_empty(&z->free)) {
		page = list_first_entry(&z->free, struct page, lru);
		list_del_init(&page->lru);
		page->flags &= ~PG_free;
		z->nr_free--;
	}
	arch_local_irq_restore(flags);
	return page;
}

void __free_page(struct page *page)
{
	struct zone *z;
	unsigned long flags;
	int users;

	if (!is_mem_map_pointer(page) ||
	    ((uintptr_t)page - (uintptr_t)mem_map) % sizeof(struct page) != 0)
		panic("__free_page(%p): not a struct page (thread '%s')", (void *)page,
		      current->name);
	if (page->flags & (PG_free | PG_reserved))
		panic("__free_page: pfn 0x%lx is %s (thread '%s'): double free or bad pointer",
		      page_to_pfn(page), (page->flags & PG_free) ? "already free" : "reserved",
		      current->name);
	/* kmap(); kunmap(); then free is fine: only real holders are a bug. */
	if (page->virtual && (users = kmap_high_release(page)) > 0)
		panic("__free_page: pfn 0x%lx is still kmap()ed at %p by %d holder(s) "
		      "(thread '%s')", page_to_pfn(page), page->virtual, users, current->name);
	/*
	 * A thread still holding the page in a slot it left (deferred scheme) is a
	 * bug, but its dirty lines must not land on the page's next owner.
	 */
	kmap_local_flush_page(page_to_pfn(page));
	z = &zones[page_zone(page)];
	flags = arch_local_irq_save();
	page->flags |= PG_free;
	list_add(&page->lru, &z->free);
	z->nr_free++;
	arch_local_irq_restore(flags);
}

unsigned long nr_free_pages(enum zone_type zone)
{
	return zone < MAX_NR_ZONES ? zones[zone].nr_free : 0;
}

unsigned long nr_managed_pages(enum zone_type zone)
{
	return zone < MAX_NR_ZONES ? zones[zone].managed : 0;
}

void mm_init(phys_addr_t first_free)
{
	unsigned long first_free_pfn = (first_free + PAGE_SIZE - 1) >> PAGE_SHIFT;
	unsigned long pfn;
	int z;

	if (first_free_pfn - ARCH_PFN_OFFSET > LOWMEM_PFN_END - ARCH_PFN_OFFSET)
		panic("mm_init: first free address 0x%08lx is outside lowmem",
		      (unsigned long)first_free);

	memset(mem_map, 0, sizeof(mem_map));
	for (z = 0; z < MAX_NR_ZONES; z++) {
		INIT_LIST_HEAD(&zones[z].free);
		zones[z].nr_free = 0;
		zones[z].managed = 0;
	}
	/*
	 * Walk downward so that, with LIFO lists, pages come out in rising
	 * address order: allocation patterns are easy to read in a dump.
	 */
	for (pfn = ARCH_PFN_OFFSET + NR_PAGES; pfn-- > ARCH_PFN_OFFSET;) {
		struct page *page = pfn_to_page(pfn);
		struct zone *zone;

		INIT_LIST_HEAD(&page->lru);
		if (pfn >= LOWMEM_PFN_END)
			page->flags = PG_highmem;
		if (pfn < first_free_pfn) {
			page->flags |= PG_reserved;
			continue;
		}
		zone = &zones[page_zone(page)];
		page->flags |= PG_free;
		list_add(&page->lru, &zone->free);
		zone->nr_free++;
		zone->managed++;
	}
	kmap_pkmap_init();
	kmap_local_init();
	dma_mapping_init();
	printf("mm: %s %lu pages free, %s %lu pages free, %u pkmap slots, %d kmap_local slots\n",
	       zone_names[ZONE_LOWMEM], zones[ZONE_LOWMEM].nr_free,
	       zone_names[ZONE_HIGHMEM], zones[ZONE_HIGHMEM].nr_free,
	       (unsigned int)LAST_PKMAP, KM_MAX_IDX);
}
