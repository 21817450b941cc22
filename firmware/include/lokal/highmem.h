/*
 * Reaching highmem: the public mapping API.
 *
 * Highmem pages (above LOWMEM_END) have no permanent kernel address. To
 * touch one, map it. Three families exist, from most to least preferred:
 *
 *   kmap_local_page()  a mapping private to the calling thread, cheap,
 *                      preemptible; unmapped with kunmap_local().
 *   kmap_atomic()      the same plus preemption and page faults disabled;
 *                      kept for code that relies on that side effect.
 *   kmap()             a global, long-lived mapping from a small shared
 *                      pool; may sleep; unmapped with kunmap(page).
 *
 * Lowmem pages need no mapping: every call returns page_address() and
 * changes nothing in the page tables. The declarations below document the
 * contract; the implementations are in lokal/highmem-internal.h.
 */
#ifndef LOKAL_HIGHMEM_H
#define LOKAL_HIGHMEM_H

#include <lokal/highmem-internal.h>

/**
 * kmap - map a page for long-term use
 * @page: the page to map
 *
 * Returns its kernel address, valid for every thread until the matching
 * kunmap(page); the pointer may be handed to other threads.
 *
 * Thread context only: when all LAST_PKMAP pool slots are taken, the call
 * sleeps until a kunmap() frees one (before the scheduler runs, it panics
 * with an explanation instead of hanging). The pool is small and shared:
 * prefer kmap_local_page() unless the address must outlive the caller's
 * context.
 */
static inline void *kmap(struct page *page);

/**
 * kunmap - release a mapping made by kmap()
 * @page: the page given to kmap() (not the address)
 *
 * Nothing happens for lowmem pages. The pool slot is recycled lazily by
 * the next flush of unused slots. One kunmap() more than kmap()s panics.
 */
static inline void kunmap(struct page *page);

/**
 * kmap_to_page - find the page behind a mapped address
 * @addr: an address returned by kmap(), kmap_local_*() or kmap_atomic*(),
 *        or a direct-map (lowmem) address
 */
static inline struct page *kmap_to_page(void *addr);

/**
 * kmap_flush_unused - drop every kmap() pool mapping nobody holds
 *
 * Costs one whole-cache flush and one TLB flush. Afterwards the released
 * pages have no kernel address left anywhere.
 */
static inline void kmap_flush_unused(void);

/**
 * kmap_flush_deferred - make memory hold what the CPU wrote to a page
 * @page: a page that something other than the CPU is about to read or
 *        write (DMA, a debugger reading RAM behind the caches)
 *
 * Writes back and drops every D-cache line a kmap_local slot holds for the
 * page: a slot another thread left mapped (KMAP_DEFER) is emptied, the
 * caller's own local maps of the page stay mapped and only lose their
 * lines. Lowmem pages are not touched: their direct-map address is not a
 * kmap slot. A kmap() address is the caller's to flush.
 */
void kmap_flush_deferred(struct page *page);

/**
 * kmap_local_page - map a page for short-term use by this thread
 * @page: the page to map
 *
 * Returns the virtual address of the mapping.
 *
 * Callable from any context, threads and interrupt handlers alike, and the
 * caller stays preemptible: when the thread is switched out its maps are
 * taken down, and they are put back when it runs again.
 *
 * The mappings of one thread form a stack. Unmap in the reverse order of
 * mapping:
 *
 *     a = kmap_local_page(p1);
 *     b = kmap_local_page(p2);
 *     ...
 *     kunmap_local(b);
 *     kunmap_local(a);
 *
 * Unmapping a before b is a bug and is reported as one. At most
 * KM_MAX_IDX / KM_INCR (16) maps may be nested.
 *
 * The address is valid only in the calling thread (and only until the
 * matching unmap): never store it or pass it to another thread. While one
 * thread holds a local map of a page, no thread may kmap() that page, nor
 * may an interrupt handler map it (VIVT: a second alias would not be
 * coherent with the first); CONFIG_DEBUG_HIGHMEM diagnoses both.
 *
 * A lowmem page returns its direct-map address. A highmem page that is
 * already kmap()ed returns that pool address (on this VIVT cache a second
 * virtual alias of the same page would not be coherent). Only other
 * highmem pages take a fixmap slot; while they do, the thread is pinned
 * to its CPU, which no caller may rely upon.
 */
static inline void *kmap_local_page(struct page *page);

/**
 * kmap_local_page_prot - kmap_local_page() with explicit page protection
 * @page: the page to map
 * @prot: the PTE protection bits, e.g. PAGE_KERNEL_NOCACHE
 */
static inline void *kmap_local_page_prot(struct page *page, pgprot_t prot);

/**
 * kmap_local_pfn - map a page frame number for short-term use
 * @pfn: the frame to map
 *
 * A lowmem frame returns its direct-map address and takes no slot, as
 * kmap_local_page() does. A highmem frame always takes a fixmap slot and
 * never reuses a kmap() address: on this VIVT cache, do not use it for a
 * page that is kmap()ed (or was, until the next kmap_flush_unused()), as
 * the two virtual aliases would not see each other's writes.
 */
static inline void *kmap_local_pfn(unsigned long pfn);

/**
 * kunmap_local - undo kmap_local_page(), kmap_local_page_prot() or kmap_local_pfn()
 * @addr: any address inside the mapped page
 *
 * Passing the struct page instead of the address is refused by the
 * compiler (and, if the type was lost, at run time).
 */
/* kunmap_local(addr) is a macro in lokal/highmem-internal.h */

/**
 * kmap_atomic - map a page for short-term use, atomically (deprecated)
 * @page: the page to map
 *
 * kmap_local_page() plus the side effects new code should not depend on:
 * on return preemption and page faults are disabled until kunmap_atomic().
 * Same stack discipline and validity rules as kmap_local_page().
 */
static inline void *kmap_atomic(struct page *page);

/** kmap_atomic_prot - kmap_atomic() with explicit page protection */
static inline void *kmap_atomic_prot(struct page *page, pgprot_t prot);

/** kmap_atomic_pfn - kmap_atomic() of a page frame number */
static inline void *kmap_atomic_pfn(unsigned long pfn);

/**
 * kunmap_atomic - undo kmap_atomic*()
 * @addr: any address inside the mapped page (not the struct page)
 *
 * Unmaps like kunmap_local(), then re-enables page faults and preemption.
 */
/* kunmap_atomic(addr) is a macro in lokal/highmem-internal.h */

/* ---- helpers: each maps, works and unmaps in one call --------------------- */

/* The helpers' own check: panics, naming who, when off + len leaves the page. */
static inline void kmap_range_check(const char *who, size_t off, size_t len)
{
	if (off > PAGE_SIZE || len > PAGE_SIZE - off)
		panic("%s: offset %zu + length %zu runs past the end of the page", who, off, len);
}

/** memcpy_page - copy len bytes between two pages (at the given offsets) */
static inline void memcpy_page(struct page *dst_page, size_t dst_off,
			       struct page *src_page, size_t src_off, size_t len)
{
	char *dst, *src;

	kmap_range_check("memcpy_page (destination)", dst_off, len);
	kmap_range_check("memcpy_page (source)", src_off, len);
	dst = kmap_local_page(dst_page);
	src = kmap_local_page(src_page);
	memcpy(dst + dst_off, src + src_off, len);
	kunmap_local(src);
	kunmap_local(dst);
}

/** memcpy_to_page - copy len bytes from a kernel buffer into a page at offset */
static inline void memcpy_to_page(struct page *page, size_t offset, const void *from, size_t len)
{
	char *to;

	kmap_range_check("memcpy_to_page", offset, len);
	to = kmap_local_page(page);
	memcpy(to + offset, from, len);
	kunmap_local(to);
}

/** memcpy_from_page - copy len bytes from a page at offset into a kernel buffer */
static inline void memcpy_from_page(void *to, struct page *page, size_t offset, size_t len)
{
	char *from;

	kmap_range_check("memcpy_from_page", offset, len);
	from = kmap_local_page(page);
	memcpy(to, from + offset, len);
	kunmap_local(from);
}

/** memset_page - fill len bytes of a page from offset with val */
static inline void memset_page(struct page *page, size_t offset, int val, size_t len)
{
	char *addr;

	kmap_range_check("memset_page", offset, len);
	addr = kmap_local_page(page);
	memset(addr + offset, val, len);
	kunmap_local(addr);
}

/** memzero_page - clear len bytes of a page from offset */
static inline void memzero_page(struct page *page, size_t offset, size_t len)
{
	memset_page(page, offset, 0, len);
}

/** clear_highpage - clear a whole page */
static inline void clear_highpage(struct page *page)
{
	void *addr = kmap_local_page(page);

	memset(addr, 0, PAGE_SIZE);
	kunmap_local(addr);
}

/** copy_highpage - copy a whole page */
static inline void copy_highpage(struct page *to, struct page *from)
{
	char *vto, *vfrom;

	vfrom = kmap_local_page(from);
	vto = kmap_local_page(to);
	memcpy(vto, vfrom, PAGE_SIZE);
	kunmap_local(vto);
	kunmap_local(vfrom);
}

#endif
