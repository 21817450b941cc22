/*
 * Streaming DMA mappings (lokal/dma-mapping.h): the cache maintenance a
 * transfer needs, done through every virtual address at which the buffer
 * may hold lines, and a record of each live mapping so that misuse is
 * reported instead of corrupting data.
 *
 * Linux on a VIVT ARM (dma_cache_maint_page) maintains a highmem page
 * through its kmap() address only, reasoning that a page without one has
 * no lines. Here local maps keep lines too: the caller's own, and the
 * slots the deferred scheme leaves behind other threads. Each is
 * maintained (the caller's own at their address, the others by emptying
 * the slot). A device reads and writes memory, never the cache.
 *
 * Each maintenance call sits on its own line, a mutant in mutants.list
 * beside this file: tests/host/mutants.sh deletes them one at a time and
 * expects a DMA host test to fail each time.
 */
#include <stdio.h>
#include <lokal/dma-mapping.h>
#include <lokal/sched.h>
#include <lokal/sched-internal.h>
#include <asm/cacheflush.h>
#include <asm/irqflags.h>
#include "kmap_scheme.h"

#define DMA_LINE_MASK   ((unsigned long)L1_CACHE_BYTES - 1)

struct dma_rec {
	dma_addr_t addr;
	size_t size;
	enum dma_data_direction dir;
	bool live;
	char owner[THREAD_NAME_LEN];
};

static struct dma_rec recs[DMA_MAX_MAPPINGS];
static unsigned int nr_live;

static const char *dir_name(enum dma_data_direction dir)
{
	switch (dir) {
	case DMA_TO_DEVICE:
		return "DMA_TO_DEVICE";
	case DMA_FROM_DEVICE:
		return "DMA_FROM_DEVICE";
	case DMA_BIDIRECTIONAL:
		return "DMA_BIDIRECTIONAL";
	}
	return "an unknown direction";
}

static bool dir_valid(enum dma_data_direction dir)
{
	return dir == DMA_TO_DEVICE || dir == DMA_FROM_DEVICE || dir == DMA_BIDIRECTIONAL;
}

/* ---- the cache operations on one virtual range ---- */

/*
 * Before an invalidate for data the device writes: a line the range only
 * partly covers also holds bytes outside the buffer, which the CPU may
 * have written; clean it, or the invalidate would drop them.
 */
static void dma_clean_partial(unsigned long va, size_t size)
{
	unsigned long end = va + size;

	if (va & DMA_LINE_MASK)
		dmac_clean_range((void *)va, 1);
	if (end & DMA_LINE_MASK)
		dmac_clean_range((void *)(end - 1), 1);
}

/*
 * Before the device gets the buffer. For data it writes, no line may stay:
 * a dirty one written back during the transfer would overwrite it.
 */
static void dma_va_to_device(unsigned long va, size_t size, enum dma_data_direction dir)
{
	if (dir == DMA_TO_DEVICE) {
		dmac_clean_range((void *)va, size);
	} else if (dir == DMA_BIDIRECTIONAL) {
		dmac_flush_range((void *)va, size);
	} else {
		dma_clean_partial(va, size);
		dmac_inv_range((void *)va, size);
	}
}

/* After the device is done: lines the CPU brought in meanwhile predate what it wrote. */
static void dma_va_to_cpu(unsigned long va, size_t size, enum dma_data_direction dir)
{
	if (dir == DMA_TO_DEVICE)
		return;
	dma_clean_partial(va, size);
	dmac_inv_range((void *)va, size);
}

/* ---- every address of one page ---- */

/*
 * Apply maint to [off, off + len) of page through each virtual address that
 * may hold its lines.
 */
static void dma_page_maint(struct page *page, size_t off, size_t len,
			   enum dma_data_direction dir,
			   void (*maint)(unsigned long, size_t, enum dma_data_direction))
{
	struct thread *me = current;
	unsigned long pfn = page_to_pfn(page);
	void *vaddr;

	if (!PageHighMem(page)) {
		maint((unsigned long)page_address(page) + off, len, dir);
		return;
	}
	/* Its kmap() address, as Linux does (which also empties other slots). */
	vaddr = kmap_high_get(page);
	if (vaddr) {
		maint((unsigned long)vaddr + off, len, dir);
		kunmap_high(page);
	}
	/* The caller's own local maps: they stay mapped, at their address. */
	for (int i = 0; i < me->kmap_ctrl.idx; i++) {
		pte_t pteval = me->kmap_ctrl.pteval[i];

		if (!pte_none(pteval) && pte_pfn(pteval) == pfn)
			maint(kmap_slot_va(i) + off, len, dir);
	}
	/* Slots other threads left holding it (the deferred scheme): emptied. */
	kmap_local_flush_page(pfn);
}

/* Apply maint to the physical range [pa, pa + size), page by page. */
static void dma_range_maint(phys_addr_t pa, size_t size, enum dma_data_direction dir,
			    void (*maint)(unsigned long, size_t, enum dma_data_direction))
{
	while (size) {
		size_t off = pa & (PAGE_SIZE - 1);
		size_t len = PAGE_SIZE - off < size ? PAGE_SIZE - off : size;

		dma_page_maint(pfn_to_page(pa >> PAGE_SHIFT), off, len, dir, maint);
		pa += len;
		size -= len;
	}
}

/* ---- the record of live mappings ---- */

#if CONFIG_DEBUG_HIGHMEM
/* A page another thread holds in a local kmap: its lines are its own business. */
static void check_other_local_maps(unsigned long pfn, const char *who)
{
	struct list_head *pos;

	list_for_each(pos, &all_threads) {
		const struct thread *t = list_entry(pos, struct thread, all);

		if (t == current)
			continue;
		for (int i = 0; i < t->kmap_ctrl.idx; i++) {
			pte_t pteval = t->kmap_ctrl.pteval[i];

			if (!pte_none(pteval) && pte_pfn(pteval) == pfn)
				panic("%s(pfn 0x%lx) in thread '%s': thread '%s' holds the page in a "
				      "live local kmap at 0x%08lx; a device must not get a page "
				      "another thread may be using", who, pfn, current->name,
				      t->name, kmap_slot_va(i));
		}
	}
}
#endif

void dma_check_cpu_access(unsigned long pfn, const char *what)
{
	/* No lock: only another thread's map or unmap changes a record, a race already lost. */
	for (unsigned int i = 0; i < DMA_MAX_MAPPINGS; i++) {
		const struct dma_rec *r = &recs[i];

		if (!r->live || r->dir == DMA_TO_DEVICE ||
		    pfn < r->addr >> PAGE_SHIFT || pfn > (r->addr + r->size - 1) >> PAGE_SHIFT)
			continue;
		panic("%s(pfn 0x%lx) in thread '%s': the page is mapped for DMA from the device "
		      "(%s by thread '%s', device address 0x%08lx, %lu bytes); the CPU must not "
		      "touch it before dma_unmap_page or dma_sync_single_for_cpu",
		      what, pfn, current->name, dir_name(r->dir), r->owner,
		      (unsigned long)r->addr, (unsigned long)r->size);
	}
}

/* Check a request, panicking with who's name; returns its physical address. */
static phys_addr_t dma_check_range(const char *who, struct page *page, size_t offset,
				   size_t size, enum dma_data_direction dir)
{
	unsigned long pfn = page_to_pfn(page);
	phys_addr_t pa = ((phys_addr_t)pfn << PAGE_SHIFT) + offset;
	unsigned long long end = (unsigned long long)pa + size;

	if (!dir_valid(dir))
		panic("%s(pfn 0x%lx) in thread '%s': direction %d is none of DMA_TO_DEVICE, "
		      "DMA_FROM_DEVICE, DMA_BIDIRECTIONAL", who, pfn, current->name, (int)dir);
	if (!size)
		panic("%s(pfn 0x%lx, offset %lu) in thread '%s': zero length", who, pfn,
		      (unsigned long)offset, current->name);
	if (!pfn_valid(pfn) || end > (unsigned long long)PHYS_OFFSET + RAM_SIZE ||
	    end < pa)
		panic("%s(pfn 0x%lx, offset %lu, %lu bytes) in thread '%s': the range ends at "
		      "0x%llx, past the end of RAM (0x%08lx)", who, pfn, (unsigned long)offset,
		      (unsigned long)size, current->name, end,
		      (unsigned long)(PHYS_OFFSET + RAM_SIZE));
#if CONFIG_DEBUG_HIGHMEM
	for (phys_addr_t p = pa & PAGE_MASK; p < end; p += PAGE_SIZE)
		check_other_local_maps(p >> PAGE_SHIFT, who);
#endif
	return pa;
}

/* Free records, one bit each: claiming one is a few instructions with IRQs off. */
_Static_assert(DMA_MAX_MAPPINGS % 32 == 0, "whole words of free bits");
static uint32_t recs_free[DMA_MAX_MAPPINGS / 32];

/* Record a mapping; false if every record is in use. */
static bool rec_add(dma_addr_t addr, size_t size, enum dma_data_direction dir)
{
	unsigned long flags = arch_local_irq_save();
	struct dma_rec *r = NULL;

	for (unsigned int w = 0; w < DMA_MAX_MAPPINGS / 32 && !r; w++)
		if (recs_free[w]) {
			unsigned int b = (unsigned int)__builtin_ctz(recs_free[w]);

			recs_free[w] &= ~(1u << b);
			r = &recs[w * 32 + b];
			nr_live++;
		}
	arch_local_irq_restore(flags);
	if (!r)
		return false;
	r->addr = addr;
	r->size = size;
	r->dir = dir;
	memcpy(r->owner, current->name, sizeof(r->owner));
	r->live = true;
	return true;
}

/* Give record r back. */
static void rec_del(struct dma_rec *r)
{
	unsigned long flags = arch_local_irq_save();
	unsigned int i = (unsigned int)(r - recs);

	r->live = false;
	recs_free[i / 32] |= 1u << (i % 32);
	nr_live--;
	arch_local_irq_restore(flags);
}

/*
 * The live record that [addr, addr + size) lies in, mapped with dir (exact
 * start and size if exact); panics naming the thread otherwise.
 */
static struct dma_rec *rec_find(const char *who, dma_addr_t addr, size_t size,
				enum dma_data_direction dir, bool exact)
{
	struct dma_rec *near = NULL;

	for (unsigned int i = 0; i < DMA_MAX_MAPPINGS; i++) {
		struct dma_rec *r = &recs[i];
		bool inside = addr >= r->addr && addr - r->addr < r->size &&
			      size <= r->size - (addr - r->addr);

		if (!r->live || !inside)
			continue;
		if ((!exact || (r->addr == addr && r->size == size)) && r->dir == dir)
			return r;
		near = r;
	}
	if (near)
		panic("%s(0x%08lx, %lu bytes, %s) in thread '%s' (pfn 0x%lx): the mapping there "
		      "is 0x%08lx, %lu bytes, %s (by thread '%s'); pass what dma_map_page "
		      "was given and returned", who, (unsigned long)addr, (unsigned long)size,
		      dir_name(dir), current->name, (unsigned long)(addr >> PAGE_SHIFT),
		      (unsigned long)near->addr, (unsigned long)near->size,
		      dir_name(near->dir), near->owner);
	panic("%s(0x%08lx, %lu bytes) in thread '%s' (pfn 0x%lx): no live DMA mapping there "
	      "(never mapped, or already unmapped)", who, (unsigned long)addr,
	      (unsigned long)size, current->name, (unsigned long)(addr >> PAGE_SHIFT));
}

/* ---- the API ---- */

#if CONFIG_DEBUG_HIGHMEM
/*
 * A buffer the device writes that shares a cache line with other bytes:
 * if the CPU writes to that line during the transfer, the dirty line also
 * holds the buffer's old bytes, and whether the unmap cleans it (over what
 * the device wrote) or drops it (and the CPU's write), one side loses. A
 * write-back cache gives no third way (a read is harmless: the line stays
 * clean and the unmap drops it), so the rule is Linux's, said where the
 * buffer is mapped.
 */
static void check_dma_alignment(phys_addr_t pa, size_t size, enum dma_data_direction dir)
{
	if (dir == DMA_TO_DEVICE || !((pa | size) & DMA_LINE_MASK))
		return;
	WARN(1, "dma_map_page(0x%08lx, %lu bytes, %s) in thread '%s': the buffer shares a "
	     "%d-byte cache line with other data (at 0x%08lx); the CPU must not write to that "
	     "line until the buffer is unmapped, or the device's data or the CPU's is lost: "
	     "align and size buffers the device writes to %d bytes",
	     (unsigned long)pa, (unsigned long)size, dir_name(dir), current->name,
	     L1_CACHE_BYTES, (unsigned long)((pa & DMA_LINE_MASK) ? pa & ~DMA_LINE_MASK :
					     (pa + size) & ~DMA_LINE_MASK), L1_CACHE_BYTES);
}
#endif

dma_addr_t dma_map_page(struct page *page, size_t offset, size_t size,
			enum dma_data_direction dir)
{
	phys_addr_t pa = dma_check_range("dma_map_page", page, offset, size, dir);

#if CONFIG_DEBUG_HIGHMEM
	check_dma_alignment(pa, size, dir);
#endif

	if (!rec_add((dma_addr_t)pa, size, dir))
		return DMA_MAPPING_ERROR;
	dma_range_maint(pa, size, dir, dma_va_to_device);
	return (dma_addr_t)pa;
}

void dma_unmap_page(dma_addr_t addr, size_t size, enum dma_data_direction dir)
{
	struct dma_rec *r = rec_find("dma_unmap_page", addr, size, dir, true);

	dma_range_maint(addr, size, dir, dma_va_to_cpu);
	rec_del(r);
}

void dma_sync_single_for_cpu(dma_addr_t addr, size_t size, enum dma_data_direction dir)
{
	rec_find("dma_sync_single_for_cpu", addr, size, dir, false);
	dma_range_maint(addr, size, dir, dma_va_to_cpu);
}

void dma_sync_single_for_device(dma_addr_t addr, size_t size, enum dma_data_direction dir)
{
	rec_find("dma_sync_single_for_device", addr, size, dir, false);
	dma_range_maint(addr, size, dir, dma_va_to_device);
}

int dma_map_sg(struct scatterlist *sg, int nents, enum dma_data_direction dir)
{
	for (int i = 0; i < nents; i++) {
		dma_addr_t a = dma_map_page(sg[i].page, sg[i].offset, sg[i].length, dir);

		if (dma_mapping_error(a)) {
			dma_unmap_sg(sg, i, dir);
			return 0;
		}
		sg[i].dma_address = a;
		sg[i].dma_length = sg[i].length;
	}
	return nents;
}

void dma_unmap_sg(struct scatterlist *sg, int nents, enum dma_data_direction dir)
{
	for (int i = 0; i < nents; i++)
		dma_unmap_page(sg[i].dma_address, sg[i].dma_length, dir);
}

unsigned int dma_mappings_live(void)
{
	return nr_live;
}

/* A fresh boot (each host test): no mapping is live. */
void dma_mapping_init(void)
{
	memset(recs, 0, sizeof(recs));
	memset(recs_free, 0xff, sizeof(recs_free));
	nr_live = 0;
}
