/*
 * The background load: each part a thread (or a few) below the measuring
 * thread, using only the kernel's API, switched on by its bit in the mask.
 * Every part counts what it did, so a run shows the load really ran.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lokal/crc32c.h>
#include <lokal/dma-memcpy.h>
#include <lokal/event_flags.h>
#include <lokal/highmem.h>
#include <lokal/mempool.h>
#include <lokal/msgqueue.h>
#include <lokal/mutex.h>
#include <lokal/platform.h>
#include <lokal/sysinfo.h>
#include <lokal/thread.h>
#include <lokal/timeout.h>
#include <lokal/timer.h>
#include "cyclic.h"

const char *const cyclic_load_names[NR_LOAD_PARTS] = {
	[LOAD_LOCAL] = "local", [LOAD_PKMAP] = "pkmap", [LOAD_GET] = "get",
	[LOAD_DMA] = "dma", [LOAD_CONSOLE] = "console", [LOAD_SERVICES] = "services",
	[LOAD_MUTEX] = "mutex",
};

#define MAX_THREADS     12
/*
 * Every part at one priority, far below the measurer (PRIO_MAX), and each
 * yields after every step: all parts make progress (a part that blocks
 * would otherwise wait a whole round of time slices behind the ones that
 * never do), and the switches between them, with their kmaps, are load too.
 */
#define PRIO_LOAD       4
#define LOCAL_DEPTH     4
#define PKMAP_EXTRA     16              /* pages beyond the pool's slots */

static volatile bool stopping;
static struct thread *threads[MAX_THREADS];
static unsigned int nr_threads;
static unsigned long done[NR_LOAD_PARTS];
static volatile uint32_t sink;
static struct page **pkmap_pages;
static unsigned int nr_pkmap_pages;
static struct page *get_page;
static DEFINE_MUTEX(measured_mutex);
static bool ticking;
static struct page **allocs[8];   /* the page arrays to give back */
static unsigned int alloc_sizes[8], nr_allocs;
static DEFINE_EVENT_FLAGS(flags);
DEFINE_MEMPOOL(blocks, 128, 4);
DEFINE_MSGQ(queue, sizeof(void *), 2);
static struct timer_list ticker;

struct mutex *cyclic_load_mutex(void)
{
	return &measured_mutex;
}

/* Local maps four deep: copy the outer page to the inner one, checksum another. */
static void local_load(void *arg)
{
	struct page **pages = arg;

	for (unsigned int i = 0; !stopping; i++) {
		void *v[LOCAL_DEPTH];

		for (unsigned int d = 0; d < LOCAL_DEPTH; d++)
			v[d] = kmap_local_page(pages[(i + d) % (2 * LOCAL_DEPTH)]);
		memcpy(v[LOCAL_DEPTH - 1], v[0], PAGE_SIZE);
		sink ^= crc32c(0, v[1], 256);
		for (unsigned int d = LOCAL_DEPTH; d-- > 0;)
			kunmap_local(v[d]);
		done[LOAD_LOCAL]++;
		thread_yield();
	}
}

/* kmap() over more pages than the pool has slots: every pass recycles it. */
static void pkmap_load(void *arg)
{
	(void)arg;
	for (unsigned int i = 0; !stopping; i++) {
		struct page *p = pkmap_pages[i % nr_pkmap_pages];
		uint32_t *v = kmap(p);

		v[i % (PAGE_SIZE / 4)]++;
		kunmap(p);
		done[LOAD_PKMAP]++;
		thread_yield();
	}
}

/* A kmap()ed page mapped again locally: the kmap_high_get() path. */
static void get_load(void *arg)
{
	(void)arg;
	kmap(get_page);
	for (unsigned int i = 0; !stopping; i++) {
		uint32_t *v = kmap_local_page(get_page);

		sink ^= v[i % (PAGE_SIZE / 4)];
		kunmap_local(v);
		if (i % 64 == 63) {             /* let recycling move it */
			kunmap(get_page);
			kmap(get_page);
		}
		done[LOAD_GET]++;
		thread_yield();
	}
	kunmap(get_page);
}

/* Four highmem pages to four others by the board's engine, over and over. */
static void dma_load(void *arg)
{
	struct page **pages = arg;
	struct scatterlist src[4], dst[4];

	sg_init_table(src, 4);
	sg_init_table(dst, 4);
	for (unsigned int i = 0; i < 4; i++) {
		sg_set_page(&src[i], pages[i], PAGE_SIZE, 0);
		sg_set_page(&dst[i], pages[4 + i], PAGE_SIZE, 0);
	}
	while (!stopping) {
		if (dma_memcpy_sg(dst, 4, src, 4, msecs_to_jiffies(100)) == 0)
			done[LOAD_DMA]++;
		else
			sink++;
		thread_yield();
	}
}

static void console_load(void *arg)
{
	(void)arg;
	while (!stopping) {
		while (console_getc() >= 0)
			done[LOAD_CONSOLE]++;
		sleep_ticks(1);
	}
}

static void ticker_fn(struct timer_list *t)
{
	(void)t;
	event_flags_set(&flags, 1u);
}

static void producer_load(void *arg)
{
	(void)arg;
	while (!stopping) {
		void *b;

		if (mempool_alloc(&blocks, &b, msecs_to_jiffies(50)))
			continue;
		memset(b, (int)done[LOAD_SERVICES], 128);
		if (msgq_send(&queue, &b, msecs_to_jiffies(50)))
			mempool_free(&blocks, b);
		thread_yield();
	}
}

static void consumer_load(void *arg)
{
	(void)arg;
	while (!stopping) {
		void *b;
		uint32_t got;

		if (msgq_receive(&queue, &b, msecs_to_jiffies(50)) == 0) {
			sink ^= crc32c(0, b, 128);
			mempool_free(&blocks, b);
			done[LOAD_SERVICES]++;
		}
		/* The timer's flag, set every tick: wait for it now and then. */
		if (done[LOAD_SERVICES] % 16 == 0)
			event_flags_wait(&flags, 1u, EF_ANY | EF_CLEAR, &got, msecs_to_jiffies(50));
		thread_yield();
	}
}

static void mutex_load(void *arg)
{
	uint8_t buf[256];

	(void)arg;
	memset(buf, 0x5a, sizeof(buf));
	while (!stopping) {
		mutex_lock(&measured_mutex);
		sink ^= crc32c(0, buf, sizeof(buf));
		mutex_unlock(&measured_mutex);
		done[LOAD_MUTEX]++;
		thread_yield();
	}
}

static bool spawn(const char *name, void (*fn)(void *), void *arg, int prio)
{
	struct thread *t;

	if (nr_threads == MAX_THREADS || !(t = thread_create(name, fn, arg, prio, 2048))) {
		printf("cyclic: cannot create load thread %s\n", name);
		return false;
	}
	threads[nr_threads++] = t;
	return true;
}

static struct page **highmem_pages(unsigned int n)
{
	struct page **p = nr_allocs < 8 ? calloc(n, sizeof(*p)) : NULL;

	if (!p) {
		printf("cyclic: no memory for the load's page table\n");
		return NULL;
	}
	allocs[nr_allocs] = p;
	alloc_sizes[nr_allocs++] = n;
	for (unsigned int i = 0; i < n; i++)
		if (!(p[i] = alloc_page(ZONE_HIGHMEM))) {
			printf("cyclic: only %u free highmem pages, the load needs %u\n", i, n);
			return NULL;
		}
	return p;
}

bool cyclic_load_start(unsigned int mask)
{
	struct page **pages;
	struct pkmap_info pi;
	bool ok = true;

	stopping = false;
	nr_threads = 0;
	memset(done, 0, sizeof(done));
	if (mask & 1u << LOAD_LOCAL) {
		for (int i = 0; ok && i < 2; i++)
			ok = (pages = highmem_pages(2 * LOCAL_DEPTH)) &&
			     spawn(i ? "local1" : "local0", local_load, pages, PRIO_LOAD);
	}
	if (ok && mask & 1u << LOAD_PKMAP) {
		pkmap_get_info(&pi);
		nr_pkmap_pages = pi.slots + PKMAP_EXTRA;
		ok = (pkmap_pages = highmem_pages(nr_pkmap_pages)) &&
		     spawn("pkmap", pkmap_load, NULL, PRIO_LOAD);
	}
	if (ok && mask & 1u << LOAD_GET)
		ok = (pages = highmem_pages(1)) && (get_page = pages[0]) &&
		     spawn("get", get_load, NULL, PRIO_LOAD);
	if (ok && mask & 1u << LOAD_DMA && dma_memcpy_engine())
		ok = (pages = highmem_pages(8)) && spawn("dma", dma_load, pages, PRIO_LOAD);
	if (ok && mask & 1u << LOAD_CONSOLE)
		ok = spawn("console", console_load, NULL, PRIO_LOAD);
	if (ok && mask & 1u << LOAD_SERVICES) {
		timer_setup(&ticker, ticker_fn, 0);
		mod_timer_periodic(&ticker, jiffies_read() + 1, 1);
		ticking = true;
		ok = spawn("producer", producer_load, NULL, PRIO_LOAD) &&
		     spawn("consumer", consumer_load, NULL, PRIO_LOAD);
	}
	if (ok && mask & 1u << LOAD_MUTEX)
		ok = spawn("holder", mutex_load, NULL, PRIO_LOAD - 1);
	if (!ok)
		cyclic_load_stop();
	return ok;
}

void cyclic_load_stop(void)
{
	stopping = true;
	for (unsigned int i = 0; i < nr_threads; i++)
		thread_join(threads[i]);
	nr_threads = 0;
	if (ticking)
		del_timer_sync(&ticker);
	ticking = false;
	while (nr_allocs--) {
		for (unsigned int i = 0; i < alloc_sizes[nr_allocs] && allocs[nr_allocs][i]; i++)
			__free_page(allocs[nr_allocs][i]);
		free(allocs[nr_allocs]);
	}
	nr_allocs = 0;
}

void cyclic_load_report(void)
{
	printf("cyclic: load done:");
	for (unsigned int i = 0; i < NR_LOAD_PARTS; i++)
		if (done[i])
			printf(" %s %lu", cyclic_load_names[i], done[i]);
	printf("\n");
}
