/*
 * Page frames and zones.
 *
 * Every frame of RAM has a struct page in mem_map[], indexed by pfn. RAM
 * is split into two zones at LOWMEM_END: LOWMEM is permanently mapped (the
 * direct map, so page_address() works), HIGHMEM has no permanent mapping
 * and is only reached through kmap()/kmap_local_page() (lokal/highmem.h).
 */
#ifndef LOKAL_MM_H
#define LOKAL_MM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <asm/memory.h>
#include <lokal/list.h>

enum zone_type {
	ZONE_LOWMEM,
	ZONE_HIGHMEM,
	MAX_NR_ZONES,
};

/* page->flags */
#define PG_highmem      (1u << 0)       /* frame lies above LOWMEM_END */
#define PG_free         (1u << 1)       /* on its zone's free list */
#define PG_reserved     (1u << 2)       /* kernel image, heap, tables: never handed out */

struct page {
	uint32_t flags;
	struct list_head lru;           /* free-list link while PG_free */
	void *virtual;                  /* highmem: pkmap address while kmap()ed, else NULL */
};

#define NR_PAGES        (RAM_SIZE >> PAGE_SHIFT)
#define ARCH_PFN_OFFSET ((unsigned long)(PHYS_OFFSET >> PAGE_SHIFT))
#define LOWMEM_PFN_END  (ARCH_PFN_OFFSET + (LOWMEM_SIZE >> PAGE_SHIFT))

extern struct page mem_map[];

/* True when pfn is a page of RAM that mem_map[] describes. */
static inline bool pfn_valid(unsigned long pfn)
{
	/* Unsigned: a pfn below the offset wraps to a huge value. */
	return pfn - ARCH_PFN_OFFSET < NR_PAGES;
}

/* Only for valid pfns (see pfn_valid()). */
static inline struct page *pfn_to_page(unsigned long pfn)
{
	return &mem_map[pfn - ARCH_PFN_OFFSET];
}

/* The page frame number of page (which must be in mem_map[]). */
static inline unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - mem_map) + ARCH_PFN_OFFSET;
}

/* True for a highmem page: one with no permanent kernel address, to be mapped. */
static inline bool PageHighMem(const struct page *page)
{
	return (page->flags & PG_highmem) != 0;
}

/* The zone page belongs to. */
static inline enum zone_type page_zone(const struct page *page)
{
	return PageHighMem(page) ? ZONE_HIGHMEM : ZONE_LOWMEM;
}

/* True if p points anywhere inside mem_map[] (used to catch a struct page * passed as an address). */
bool is_mem_map_pointer(const void *p);

/*
 * The kernel address of a page: the direct map for lowmem; for highmem the
 * pkmap address while the page is kmap()ed, NULL otherwise. Never a
 * kmap_local address (those belong to one thread).
 */
void *page_address(const struct page *page);

/* The lowmem page behind a direct-map address. */
struct page *virt_to_page(const void *addr);

/*
 * Hand out one free page of the zone, or NULL when the zone is exhausted
 * (the caller decides; nothing is printed). The content is not cleared.
 */
struct page *alloc_page(enum zone_type zone);

/* Give a page from alloc_page() back. Freeing a free or reserved page panics. */
void __free_page(struct page *page);

/* Free pages in a zone, and pages the zone manages in all (free or not). */
unsigned long nr_free_pages(enum zone_type zone);
unsigned long nr_managed_pages(enum zone_type zone);

/*
 * Bring up the page allocator and the kmap machinery. first_free is the
 * first physical address the kernel does not own (page aligned, in lowmem:
 * arch_kernel_end() on target). Frames below it are reserved; frames from
 * it to LOWMEM_END feed ZONE_LOWMEM, the rest of RAM feeds ZONE_HIGHMEM.
 * Call once, before any thread exists. (The host tests call it again to
 * start each test from a fresh state.)
 */
void mm_init(phys_addr_t first_free);

#endif
