/*
 * Figure 2: map + unmap cost of one page through each path: a lowmem page
 * (no mapping at all), a highmem page through kmap_local_page, kmap_atomic
 * and kmap, and the kmap_high_get path (kmap_local_page of a page that is
 * already kmap()ed).
 */
#include <stdlib.h>
#include <lokal/highmem.h>
#include <lokal/bug.h>
#include "bench.h"
#include "pages.h"

#define ITERS           2000
#define CYCLE_PAGES     1024    /* more than LAST_PKMAP: slots get recycled */

static volatile uint32_t sink;

static uint64_t time_local(struct page *page)
{
	uint32_t t = clock_read();

	for (int i = 0; i < ITERS; i++) {
		uint32_t *p = kmap_local_page(page);

		sink += *p;
		kunmap_local(p);
	}
	return per_iter_x100(clock_read() - t, ITERS);
}

static uint64_t time_atomic(struct page *page)
{
	uint32_t t = clock_read();

	for (int i = 0; i < ITERS; i++) {
		uint32_t *p = kmap_atomic(page);

		sink += *p;
		kunmap_atomic(p);
	}
	return per_iter_x100(clock_read() - t, ITERS);
}

static uint64_t time_kmap(struct page **pages, int n)
{
	uint32_t t = clock_read();

	for (int i = 0; i < ITERS; i++) {
		struct page *page = pages[i % n];
		uint32_t *p = kmap(page);

		sink += *p;
		kunmap(page);
	}
	return per_iter_x100(clock_read() - t, ITERS);
}

void bench_kmap(void)
{
	struct page *low = alloc_page(ZONE_LOWMEM);
	struct page *high = bench_pages(0)[0];
	struct page **cycle = malloc(CYCLE_PAGES * sizeof(*cycle));

	BUG_ON(!low || !cycle);
	for (int i = 0; i < CYCLE_PAGES; i++)
		BUG_ON(!(cycle[i] = alloc_page(ZONE_HIGHMEM)));

	bench_result("map+unmap", "lowmem, kmap_local_page", time_local(low));
	bench_result("map+unmap", "highmem, kmap_local_page", time_local(high));
	bench_result("map+unmap", "lowmem, kmap_atomic", time_atomic(low));
	bench_result("map+unmap", "highmem, kmap_atomic", time_atomic(high));
	kmap_flush_unused();
	bench_result("map+unmap", "highmem, kmap (same page)", time_kmap(&high, 1));
	bench_result("map+unmap", "highmem, kmap (1024 pages)", time_kmap(cycle, CYCLE_PAGES));

	/* kmap_high_get: the page keeps its pkmap address while kmap()ed. */
	kmap(high);
	bench_result("map+unmap", "highmem kmap()ed, kmap_local_page", time_local(high));
	kunmap(high);

	for (int i = 0; i < CYCLE_PAGES; i++)
		__free_page(cycle[i]);
	free(cycle);
	__free_page(low);
}
