/*
 * Figure 5: streaming DMA. The CPU cost of the cache maintenance that
 * dma_map_page + dma_unmap_page do for one page in each direction (under
 * -icount these are instructions), and the board's memory-to-memory DMA
 * engine's request-to-completion time (dma_memcpy_sg(): the PL080 on
 * versatilepb) for one highmem page and for a 16-page scatterlist:
 * mapping, the engine's descriptors, the transfer, the completion
 * interrupt, the wake-up and the unmap. QEMU moves the data itself at no
 * cost in virtual time, so the transfer's bus time is not in these figures.
 */
#include <stdio.h>
#include <lokal/highmem.h>
#include <lokal/dma-mapping.h>
#include <lokal/dma-memcpy.h>
#include <lokal/timeout.h>
#include <lokal/bug.h>
#include "bench.h"
#include "pages.h"

#define MAP_ITERS       200
#define COPY_ITERS      50
#define SG_PAGES        16

static volatile uint32_t sink;

/* map + unmap of a whole page, with one dirty line in it each time. */
static uint64_t time_map(struct page *page, enum dma_data_direction dir)
{
	uint32_t total = 0;

	for (int i = 0; i < MAP_ITERS; i++) {
		uint32_t *p = kmap_local_page(page);

		p[(i * 8) % (PAGE_SIZE / 4)] = (uint32_t)i;
		kunmap_local(p);
		uint32_t t = clock_read();
		dma_addr_t a = dma_map_page(page, 0, PAGE_SIZE, dir);

		BUG_ON(dma_mapping_error(a));
		dma_unmap_page(a, PAGE_SIZE, dir);
		total += clock_read() - t;
	}
	return per_iter_x100(total, MAP_ITERS);
}

bool bench_dma_ready(void)
{
	return dma_memcpy_engine() != NULL;
}

int bench_dma_copy(struct page **dst, struct page **src, int n)
{
	struct scatterlist s[SG_PAGES], d[SG_PAGES];

	BUG_ON(n > SG_PAGES);
	sg_init_table(s, n);
	sg_init_table(d, n);
	for (int i = 0; i < n; i++) {
		sg_set_page(&s[i], src[i], PAGE_SIZE, 0);
		sg_set_page(&d[i], dst[i], PAGE_SIZE, 0);
	}
	return dma_memcpy_sg(d, n, s, n, msecs_to_jiffies(1000));
}

static uint64_t time_copy(int n)
{
	uint32_t t = clock_read();

	for (int i = 0; i < COPY_ITERS; i++)
		BUG_ON(bench_dma_copy(bench_pages(3), bench_pages(2), n) != 0);
	return per_iter_x100(clock_read() - t, COPY_ITERS);
}

void bench_dma(void)
{
	static const struct { enum dma_data_direction dir; const char *name; } dirs[] = {
		{ DMA_TO_DEVICE, "to device" },
		{ DMA_FROM_DEVICE, "from device" },
		{ DMA_BIDIRECTIONAL, "bidirectional" },
	};
	struct page *low = alloc_page(ZONE_LOWMEM);
	char name[64];

	BUG_ON(!low);
	for (unsigned int i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(name, sizeof(name), "map+unmap lowmem page, %s", dirs[i].name);
		bench_result("dma", name, time_map(low, dirs[i].dir));
		snprintf(name, sizeof(name), "map+unmap highmem page, %s", dirs[i].name);
		bench_result("dma", name, time_map(bench_pages(2)[0], dirs[i].dir));
	}
	__free_page(low);
	if (!bench_dma_ready())
		return;
	snprintf(name, sizeof(name), "%s copy, 1 highmem page, request to completion", dma_memcpy_engine());
	bench_result("dma", name, time_copy(1));
	snprintf(name, sizeof(name), "%s copy, %d-page scatterlist, request to completion",
		 dma_memcpy_engine(), SG_PAGES);
	bench_result("dma", name, time_copy(SG_PAGES));
}
