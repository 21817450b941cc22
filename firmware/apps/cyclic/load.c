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
static volatile uint32_t sink;
static struct page **pkmap_pages;
static unsigned int nr_pkmap_pages;
static struct page *get_page;
static DEFINE_MUTEX(measured_mutex);
static bool ticking;
static struct page_array {       /* the page arrays to give back */
	struct page **pages;
	unsigned int n;
} allocs[8];
static unsigned int nr_allocs;
static DEFINE_EVENT_FLAGS(flags);
DEFINE_MEMPOOL(blocks, 128, 4);
DEFINE_MSGQ(queue, sizeof(void *), 2);
static struct timer_list ticker;

/* One part of the load: its name, what starts it, and the steps it did. */
struct load_part {
	const char *name;
	bool (*start)(void);    /* its threads and what they need; false: it could not */
	unsigned long done;
};
static struct load_part parts[NR_LOAD_PARTS];

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
		parts[LOAD_LOCAL].done++;
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
		parts[LOAD_PKMAP].done++;
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
		parts[LOAD_GET].done++;
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
			parts[LOAD_DMA].done++;
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
			parts[LOAD_CONSOLE].done++;
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
		memset(b, (int)parts[LOAD_SERVICES].done, 128);
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
			parts[LOAD_SERVICES].done++;
		}
		/* The timer's flag, set every tick: wait for it now and then. */
		if (parts[LOAD_SERVICES].done % 16 == 0)
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
		parts[LOAD_MUTEX].done++;
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
	allocs[nr_allocs++] = (struct page_array){ p, n };
	for (unsigned int i = 0; i < n; i++)
		if (!(p[i] = alloc_page(ZONE_HIGHMEM))) {
			printf("cyclic: only %u free highmem pages, the load needs %u\n", i, n);
			return NULL;
		}
	return p;
}

static bool start_local(void)
{
	struct page **pages;

	for (int i = 0; i < 2; i++)
		if (!(pages = highmem_pages(2 * LOCAL_DEPTH)) ||
		    !spawn(i ? "local1" : "local0", local_load, pages, PRIO_LOAD))
			return false;
	return true;
}

static bool start_pkmap(void)
{
	struct pkmap_info pi;

	pkmap_get_info(&pi);
	nr_pkmap_pages = pi.slots + PKMAP_EXTRA;
	return (pkmap_pages = highmem_pages(nr_pkmap_pages)) && spawn("pkmap", pkmap_load, NULL, PRIO_LOAD);
}

static bool start_get(void)
{
	struct page **pages = highmem_pages(1);

	return pages && (get_page = pages[0]) && spawn("get", get_load, NULL, PRIO_LOAD);
}

/* A board without an engine has no DMA load: the part is left out, not failed. */
static bool start_dma(void)
{
	struct page **pages;

	if (!dma_memcpy_engine())
		return true;
	return (pages = highmem_pages(8)) && spawn("dma", dma_load, pages, PRIO_LOAD);
}

static bool start_console(void)
{
	return spawn("console", console_load, NULL, PRIO_LOAD);
}

static bool start_services(void)
{
	timer_setup(&ticker, ticker_fn, 0);
	mod_timer_periodic(&ticker, jiffies_read() + 1, 1);
	ticking = true;
	return spawn("producer", producer_load, NULL, PRIO_LOAD) &&
	       spawn("consumer", consumer_load, NULL, PRIO_LOAD);
}

/* Below the other parts: it holds the mutex while the measurer may want it. */
static bool start_mutex(void)
{
	return spawn("holder", mutex_load, NULL, PRIO_LOAD - 1);
}

static struct load_part parts[NR_LOAD_PARTS] = {
	[LOAD_LOCAL]    = { "local", start_local, 0 },
	[LOAD_PKMAP]    = { "pkmap", start_pkmap, 0 },
	[LOAD_GET]      = { "get", start_get, 0 },
	[LOAD_DMA]      = { "dma", start_dma, 0 },
	[LOAD_CONSOLE]  = { "console", start_console, 0 },
	[LOAD_SERVICES] = { "services", start_services, 0 },
	[LOAD_MUTEX]    = { "mutex", start_mutex, 0 },
};

const char *cyclic_load_name(unsigned int part)
{
	return part < NR_LOAD_PARTS ? parts[part].name : "?";
}

bool cyclic_load_start(unsigned int mask)
{
	bool ok = true;

	stopping = false;
	nr_threads = 0;
	for (unsigned int i = 0; i < NR_LOAD_PARTS; i++)
		parts[i].done = 0;
	for (unsigned int i = 0; ok && i < NR_LOAD_PARTS; i++)
		if (mask & 1u << i)
			ok = parts[i].start();
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
		struct page_array *a = &allocs[nr_allocs];

		for (unsigned int i = 0; i < a->n && a->pages[i]; i++)
			__free_page(a->pages[i]);
		free(a->pages);
	}
	nr_allocs = 0;
}

void cyclic_load_report(void)
{
	printf("cyclic: load done:");
	for (unsigned int i = 0; i < NR_LOAD_PARTS; i++)
		if (parts[i].done)
			printf(" %s %lu", parts[i].name, parts[i].done);
	printf("\n");
}
