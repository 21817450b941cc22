/* Highmem pages the benchmarks map, in a few disjoint sets. */
#ifndef BENCH_PAGES_H
#define BENCH_PAGES_H

#include <lokal/mm.h>

#define BENCH_PAGES     16      /* = KM_MAX_IDX without DEBUG_HIGHMEM */
#define BENCH_SETS      4

/* Allocate every set from ZONE_HIGHMEM (once). */
void bench_pages_init(void);
/* Set 0..BENCH_SETS-1: BENCH_PAGES distinct highmem pages. */
struct page **bench_pages(int set);
/* Nested kmap_local_page of pages[0..n-1] into addr[], and the reverse. */
void map_pages(struct page **pages, int n, void **addr);
void unmap_pages(int n, void **addr);

#endif
