/*
 * Figure 2: map + unmap cost of one page through each path: a lowmem page
 * (no mapping at all), a highmem page through kmap_local_page, kmap_atomic
 * and kmap, and the kmap_high_get path (kmap_local_page of a page that is
 * already kmap()ed); and a kmap_local_page whose slot another thread left
 * holding a dirty page (KMAP_DEFER flushes it first; the eager schemes
 * emptied it at that thread's switch-out).
 */
#include <stdlib.h>
#include <lokal/highmem.h>
#include <lokal/thread.h>
#include <lokal/mutex.h>
#include <lokal/app.h>
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

/*
 * The slot left behind: a more urgent holder keeps a page mapped in slot 0,
 * dirties one line of it and blocks; main then maps another page into the
 * same slot. Only main's map+unmap is timed, once per hand-over.
 */
#define DEFERRED_ITERS  1000
static struct semaphore holder_go;
static volatile bool holder_stop;

static void holder(void *arg)
{
	uint32_t *p = kmap_local_page(arg);

	for (;;) {
		sink += p[0];
		p[0] = sink;            /* read first: the store is a dirty hit */
		down(&holder_go);
		if (holder_stop)
			break;
	}
	kunmap_local(p);
}

static uint64_t time_local_after_deferred(struct page *held, struct page *page)
{
	struct thread *h;
	uint32_t total = 0;

	sema_init(&holder_go, 0);
	holder_stop = false;
	h = thread_create("holder", holder, held, PRIO_MAIN + 1, 2048);    /* runs and blocks */
	for (int i = 0; i < DEFERRED_ITERS; i++) {
		uint32_t t = clock_read();
		uint32_t *p = kmap_local_page(page);

		sink += *p;
		kunmap_local(p);
		total += clock_read() - t;
		up(&holder_go);         /* the holder runs again, dirties its page, blocks */
	}
	holder_stop = true;
	up(&holder_go);
	thread_join(h);
	return per_iter_x100(total, DEFERRED_ITERS);
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
	kmap_flush_unused();            /* high must not keep its pkmap address */
	bench_result("map+unmap", "highmem, kmap_local_page, slot left by another thread",
		     time_local_after_deferred(bench_pages(1)[0], high));

	for (int i = 0; i < CYCLE_PAGES; i++)
		__free_page(cycle[i]);
	free(cycle);
	__free_page(low);
}
