/*
 * Streaming DMA mappings, with Linux's names and semantics (there is no
 * IOMMU and no struct device: a device address is the physical address).
 *
 * A buffer belongs to the device between dma_map_*() and dma_unmap_*()
 * (or dma_sync_*_for_cpu()): the CPU must not touch it meanwhile. The calls
 * do every cache operation the transfer needs, so no driver does its own:
 *
 *   direction          at map (and sync for device)      at unmap (and sync for CPU)
 *   DMA_TO_DEVICE      clean                             nothing
 *   DMA_FROM_DEVICE    invalidate, cleaning a partial    invalidate again
 *                      line at either end first
 *   DMA_BIDIRECTIONAL  clean + invalidate                invalidate again
 *
 * On this VIVT cache a page may hold lines under every virtual address it
 * has: the direct map for lowmem; for highmem its kmap() address, the
 * caller's own local maps of it, and any slot another thread left mapped
 * (the deferred kmap scheme). All of them are maintained.
 */
#ifndef LOKAL_DMA_MAPPING_H
#define LOKAL_DMA_MAPPING_H

#include <stddef.h>
#include <stdint.h>
#include <lokal/mm.h>

typedef uint32_t dma_addr_t;

enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
};

/* What dma_map_page() returns when it cannot map (no free mapping record). */
#define DMA_MAPPING_ERROR       (~(dma_addr_t)0)

/* Mappings that may be live at once (each dma_map_page, each sg entry). */
#define DMA_MAX_MAPPINGS        64

/*
 * Hand size bytes at offset in page (and the pages physically after it)
 * to the device. Returns the device address, or DMA_MAPPING_ERROR when
 * DMA_MAX_MAPPINGS are live. A zero size, a range past the end of RAM or a
 * bad direction is a bug: panics naming the thread and the page. With
 * DEBUG_HIGHMEM, so is a page another thread holds in a local kmap.
 */
dma_addr_t dma_map_page(struct page *page, size_t offset, size_t size,
			enum dma_data_direction dir);

/*
 * Give the buffer back to the CPU; size and dir as mapped. An address that
 * is not mapped (never, or already unmapped) panics naming the thread.
 */
void dma_unmap_page(dma_addr_t addr, size_t size, enum dma_data_direction dir);

/* The CPU may read what the device wrote; the mapping stays. */
void dma_sync_single_for_cpu(dma_addr_t addr, size_t size, enum dma_data_direction dir);
/* The device may use the buffer again after the CPU touched it. */
void dma_sync_single_for_device(dma_addr_t addr, size_t size, enum dma_data_direction dir);

/* True if a map call failed. */
static inline int dma_mapping_error(dma_addr_t addr)
{
	return addr == DMA_MAPPING_ERROR;
}

/* ---- scatterlists: a plain array of entries, no chaining ---- */

struct scatterlist {
	struct page *page;
	unsigned int offset;
	unsigned int length;
	dma_addr_t dma_address;         /* set by dma_map_sg() */
	unsigned int dma_length;
};

/* Clear nents entries before sg_set_page() fills them. */
static inline void sg_init_table(struct scatterlist *sg, unsigned int nents)
{
	for (unsigned int i = 0; i < nents; i++)
		sg[i] = (struct scatterlist){ 0 };
}

/* Entry sg describes len bytes of page from offset (not yet mapped for the device). */
static inline void sg_set_page(struct scatterlist *sg, struct page *page,
			       unsigned int len, unsigned int offset)
{
	sg->page = page;
	sg->length = len;
	sg->offset = offset;
}

#define sg_dma_address(sg)      ((sg)->dma_address)
#define sg_dma_len(sg)          ((sg)->dma_length)

/*
 * Map every entry (one mapping each, never merged). Returns nents, or 0
 * if the mappings ran out (then none is left mapped).
 */
int dma_map_sg(struct scatterlist *sg, int nents, enum dma_data_direction dir);
/* Unmap what dma_map_sg() mapped: the same sg, nents and dir. */
void dma_unmap_sg(struct scatterlist *sg, int nents, enum dma_data_direction dir);

/* Live mappings (tests and the shell). */
unsigned int dma_mappings_live(void);
/* Called by mm_init(): no mapping is live. */
void dma_mapping_init(void);

/*
 * CONFIG_DEBUG_HIGHMEM: panic if pfn is mapped for DMA from the device
 * (FROM_DEVICE or BIDIRECTIONAL): what = the CPU call about to reach it.
 */
void dma_check_cpu_access(unsigned long pfn, const char *what);

#endif
