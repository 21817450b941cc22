/* Bench page sets and nested mapping helpers. */
#include <lokal/highmem.h>
#include <lokal/bug.h>
#include "pages.h"

static struct page *sets[BENCH_SETS][BENCH_PAGES];

void bench_pages_init(void)
{
	for (int s = 0; s < BENCH_SETS; s++)
		for (int i = 0; i < BENCH_PAGES; i++) {
			sets[s][i] = alloc_page(ZONE_HIGHMEM);
			BUG_ON(!sets[s][i]);
			clear_highpage(sets[s][i]);
		}
}

struct page **bench_pages(int set)
{
	return sets[set];
}

void map_pages(struct page **pages, int n, void **addr)
{
	for (int i = 0; i < n; i++)
		addr[i] = kmap_local_page(pages[i]);
}

void unmap_pages(int n, void **addr)
{
	for (int i = n - 1; i >= 0; i--)
		kunmap_local(addr[i]);
}
