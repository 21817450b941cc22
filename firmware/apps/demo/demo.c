/*
 * The main demo (`make run`).
 *
 * 1. Fill every highmem page with a pattern through kmap_local_page and
 *    verify it through kmap(), kmap_atomic and the kmap_high_get path.
 * 2. Several threads at mixed priorities copy and checksum highmem pages
 *    while holding nested local maps; the tick preempts them, a
 *    high-priority sampler wakes every few milliseconds and maps pages of
 *    its own. Every switch tears down and restores the maps. At the end
 *    every page is verified again.
 *
 * 3. The board's DMA reads and writes highmem pages while other threads
 *    hold maps of their neighbours (demo_dma.c).
 *
 * The threads use the RTOS services as an application would: a periodic
 * software timer paces the sampler through a completion, each worker
 * reports through a message queue in a block from a memory pool and
 * raises its event flag, and main waits for all the flags (with a
 * timeout) and suspends the sampler while it prints its snapshot.
 *
 * It sizes itself from the memory there is: with little highmem the threads
 * work on fewer pages, topped up with lowmem ones (kmap of a lowmem page is
 * its direct address), and with none it says so and runs on lowmem alone.
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <lokal/app.h>
#include <lokal/thread.h>
#include <lokal/highmem.h>
#include <lokal/crc32c.h>
#include <lokal/bug.h>
#include <lokal/completion.h>
#include <lokal/msgqueue.h>
#include <lokal/mempool.h>
#include <lokal/event_flags.h>
#include <lokal/timer.h>
#include "demo.h"
#include "demo_dma.h"

#define WORKERS         6
#define PAGES_PER_WORKER 64     /* at most; fewer when memory is short */
#define MIN_PER_WORKER  2       /* each section maps a page and its neighbour */
#define SAMPLER_PAGES   8
#define ROUNDS          20      /* some 1,100 switches, half of them moving maps */
#define POOL_WANTED     (WORKERS * PAGES_PER_WORKER + SAMPLER_PAGES)
/* Lowmem pages left to the kernel when the demo tops up its pool. */
#define LOWMEM_RESERVE  16

struct counters {
	unsigned long local, atomic, kmap, high_get, mismatches;
};
static struct counters count;

static uint32_t pattern(unsigned long pfn, unsigned int word, uint32_t gen)
{
	return (uint32_t)(pfn * 2654435761u) ^ (word * 40503u) ^ gen;
}

static void fill(uint32_t *p, unsigned long pfn, uint32_t gen)
{
	for (unsigned int w = 0; w < PAGE_SIZE / 4; w++)
		p[w] = pattern(pfn, w, gen);
}

static unsigned long check(const uint32_t *p, unsigned long pfn, uint32_t gen)
{
	unsigned long bad = 0;

	for (unsigned int w = 0; w < PAGE_SIZE / 4; w++)
		bad += p[w] != pattern(pfn, w, gen);
	return bad;
}

/* Phase 1: every highmem page, through every path. */
static struct page **all_high;
static unsigned long nr_high;

static void phase_fill_all(void)
{
	struct page *pg;

	/* Room for phase 2's lowmem top-up too (see phase_threads). */
	all_high = malloc((nr_managed_pages(ZONE_HIGHMEM) + POOL_WANTED) * sizeof(*all_high));
	BUG_ON(!all_high);
	while ((pg = alloc_page(ZONE_HIGHMEM)) != NULL)
		all_high[nr_high++] = pg;
	if (nr_high == 0) {
		printf("demo: no highmem to exercise (RAM_MB equals LOWMEM_MB): kmap_local_page, "
		       "kmap and kmap_atomic of lowmem pages are their direct addresses\n");
		return;
	}

	for (unsigned long i = 0; i < nr_high; i++) {
		uint32_t *p = kmap_local_page(all_high[i]);

		fill(p, page_to_pfn(all_high[i]), 0);
		kunmap_local(p);
		count.local++;
	}
	for (unsigned long i = 0; i < nr_high; i++) {
		struct page *pg = all_high[i];
		unsigned long pfn = page_to_pfn(pg);

		if (i % 4 == 0) {               /* through the pkmap pool */
			uint32_t *p = kmap(pg);

			count.mismatches += check(p, pfn, 0);
			count.kmap++;
			if (i % 16 == 0) {      /* already kmap()ed: kmap_high_get path */
				uint32_t *q = kmap_local_page(pg);

				BUG_ON(q != p);
				count.mismatches += check(q, pfn, 0);
				kunmap_local(q);
				count.high_get++;
			}
			kunmap(pg);
		} else {
			uint32_t *p = kmap_atomic(pg);

			count.mismatches += check(p, pfn, 0);
			kunmap_atomic(p);
			count.atomic++;
		}
	}
	printf("demo: %lu highmem pages (%lu MiB) filled through kmap_local_page, verified through "
	       "kmap %lu, kmap_atomic %lu, kmap_high_get %lu: %lu mismatching words\n",
	       nr_high, nr_high >> 8, count.kmap, count.atomic, count.high_get, count.mismatches);
}

/* Phase 2: preempted threads holding nested maps. */
struct worker {
	struct page **pages;
	int nr_pages;
	uint32_t gen;
	unsigned long sections;
	unsigned long bad;
	int index;
};

/* What a worker reports at its end, in a pool block sent through the queue. */
struct report {
	unsigned long sections, bad;
};
static struct mempool report_pool;
static uint64_t report_region[MEMPOOL_REGION_SIZE(sizeof(struct report), WORKERS) / 8 + 1];
static struct msgqueue reports;
static struct report *report_ring[WORKERS];
static struct event_flags workers_done;

static void report(struct worker *w)
{
	struct report *r;

	BUG_ON(mempool_alloc(&report_pool, (void **)&r, MAX_SCHEDULE_TIMEOUT) != 0);
	r->sections = w->sections;
	r->bad = w->bad;
	BUG_ON(msgq_send(&reports, &r, MAX_SCHEDULE_TIMEOUT) != 0);
	event_flags_set(&workers_done, 1u << w->index);
}

static void worker_fn(void *arg)
{
	struct worker *w = arg;

	for (int r = 0; r < ROUNDS; r++) {
		for (int i = 0; i < w->nr_pages; i++) {
			struct page *a = w->pages[i];
			struct page *b = w->pages[(i + 1) % w->nr_pages];
			uint32_t *pa = kmap_local_page(a);
			uint32_t *pb = kmap_local_page(b);
			uint32_t crc = crc32c(0, pa, PAGE_SIZE);

			/* pb still holds generation r (or r+1 if already rewritten) */
			(void)pb;
			if (i % 8 == 0)
				thread_yield();
			w->bad += check(pa, page_to_pfn(a), w->gen);
			fill(pa, page_to_pfn(a), w->gen + 1);
			if (crc32c(0, pa, PAGE_SIZE) == crc)
				w->bad++;       /* rewriting must change the checksum */
			kunmap_local(pb);
			kunmap_local(pa);
			w->sections++;
		}
		w->gen++;
	}
	report(w);
}

static volatile bool sampler_stop;
static unsigned long sampler_maps;
static struct completion sample_due;

static void sample_tick(struct timer_list *t)
{
	(void)t;
	complete(&sample_due);
}
static DEFINE_TIMER(sample_timer, sample_tick);

static void sampler_fn(void *arg)
{
	struct page **pages = arg;
	unsigned int i = 0;

	while (!sampler_stop) {
		uint32_t *p = kmap_local_page(pages[i++ % SAMPLER_PAGES]);

		p[0]++;
		kunmap_local(p);
		sampler_maps++;
		/* Paced by the timer; the timeout only bounds a lost tick. */
		wait_for_completion_timeout(&sample_due, msecs_to_jiffies(100));
	}
}

/*
 * Phase 2's pool: the highmem pages, topped up with lowmem pages when there
 * are too few, leaving the kernel LOWMEM_RESERVE. Returns the pages each
 * worker gets (0: not even MIN_PER_WORKER, phase 2 cannot run).
 */
static int size_pool(void)
{
	unsigned long lowmem = 0, per, pool = nr_high;
	struct page *pg;

	while (pool < POOL_WANTED && nr_free_pages(ZONE_LOWMEM) > LOWMEM_RESERVE &&
	       (pg = alloc_page(ZONE_LOWMEM)) != NULL) {
		uint32_t *p = kmap_local_page(pg);

		fill(p, page_to_pfn(pg), 0);    /* as phase 1 left the highmem pages */
		kunmap_local(p);
		all_high[pool++] = pg;
		lowmem++;
	}
	per = pool > SAMPLER_PAGES ? (pool - SAMPLER_PAGES) / WORKERS : 0;
	if (per > PAGES_PER_WORKER)
		per = PAGES_PER_WORKER;
	if (per < MIN_PER_WORKER) {
		printf("demo: only %lu pages to spare, %d needed: threads phase skipped\n",
		       pool, WORKERS * MIN_PER_WORKER + SAMPLER_PAGES);
		return 0;
	}
	if (lowmem || per < PAGES_PER_WORKER)
		printf("demo: %lu highmem pages for the threads (%d wanted), topped up with %lu "
		       "lowmem pages: %lu pages per worker\n", nr_high, POOL_WANTED, lowmem, per);
	return (int)per;
}

struct sched_stats demo_stats_base;

static void phase_threads(void)
{
	struct worker w[WORKERS];
	struct thread *t[WORKERS], *sampler;
	struct sched_stats st;
	unsigned long bad = 0, sections = 0;
	char name[16];
	int per = size_pool();

	if (per == 0)
		return;
	BUG_ON(mempool_init(&report_pool, report_region, sizeof(report_region), sizeof(struct report)) < WORKERS);
	msgq_init(&reports, report_ring, sizeof(report_ring), sizeof(report_ring[0]));
	event_flags_init(&workers_done);
	init_completion(&sample_due);
	mod_timer_periodic(&sample_timer, jiffies_read() + 1, msecs_to_jiffies(3));
	for (int i = 0; i < WORKERS; i++) {
		w[i] = (struct worker){ &all_high[i * per], per, 0, 0, 0, i };
		snprintf(name, sizeof(name), "worker%d", i);
		/* three priority levels, two threads each: slices and preemption */
		t[i] = thread_create(name, worker_fn, &w[i], PRIO_MAIN - 3 + i / 2, 2048);
	}
	sampler = thread_create("sampler", sampler_fn, &all_high[WORKERS * per],
				PRIO_MAIN + 2, 2048);
	sleep_ms(40);           /* a snapshot mid-run: preempted threads hold maps */
	thread_suspend(sampler);        /* kept out of the way while ps prints */
	thread_ps();
	thread_resume(sampler);
	if (event_flags_wait(&workers_done, (1u << WORKERS) - 1, EF_ALL, NULL,
			     msecs_to_jiffies(60000)) != 0)
		printf("demo: workers still running after 60 s\n");
	for (int i = 0; i < WORKERS; i++) {
		struct report *r;

		BUG_ON(msgq_receive(&reports, &r, 0) != 0);
		bad += r->bad;
		sections += r->sections;
		mempool_free(&report_pool, r);
		thread_join(t[i]);
	}
	sampler_stop = true;
	del_timer_sync(&sample_timer);
	complete(&sample_due);
	thread_join(sampler);

	/* Every worker page holds generation ROUNDS now. */
	for (int i = 0; i < WORKERS * per; i++) {
		uint32_t *p = kmap(all_high[i]);

		bad += check(p, page_to_pfn(all_high[i]), ROUNDS);
		kunmap(all_high[i]);
	}
	sched_get_stats(&st);
	printf("demo: %d threads, %lu map sections (2 nested maps each), sampler mapped %lu times\n",
	       WORKERS, sections, sampler_maps);
	printf("demo: %lu context switches, %lu preemptions, %lu switches moved kmaps, "
	       "%lu maps restored\n", st.switches - demo_stats_base.switches,
	       st.preemptions - demo_stats_base.preemptions,
	       st.kmap_switches - demo_stats_base.kmap_switches,
	       st.kmaps_restored - demo_stats_base.kmaps_restored);
	printf("demo: data verification: %lu mismatching words\n", bad);
	count.mismatches += bad;
}

/* Phase 3: DMA, on the highmem pages phase 2's pool never takes. */
static void phase_dma(void)
{
	if (nr_high > POOL_WANTED)
		count.mismatches += demo_dma_phase(&all_high[POOL_WANTED], nr_high - POOL_WANTED);
	else
		printf("demo: DMA phase skipped: phase 2 took every highmem page\n");
}

int demo_run(void)
{
	struct sched_stats st;

	printf("demo: highmem %lu pages free, lowmem %lu pages free\n",
	       nr_free_pages(ZONE_HIGHMEM), nr_free_pages(ZONE_LOWMEM));
	phase_fill_all();
	phase_threads();
	phase_dma();
	/* Last, so that a logic analyzer's count of switch pulses matches it. */
	sched_get_stats(&st);
	printf("demo: %lu context switches in all\n", st.switches - demo_stats_base.switches);
	printf("demo: %s\n", count.mismatches ? "FAILED" :
	       nr_high ? "all highmem data verified" : "all data verified (there was no highmem)");
	return count.mismatches ? 1 : 0;
}
