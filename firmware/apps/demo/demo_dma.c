/*
 * The demo's DMA phase: the board's DMA reads (and, with a memory-to-memory
 * engine, writes) highmem pages while other threads, switched out and
 * preempted all the time, hold local maps of the neighbouring pages and
 * write to them. The board says what it has:
 *
 * - a memory-to-memory engine (lokal/dma-memcpy.h, versatilepb's PL080):
 *   two copier threads fill highmem pages through local maps and copy them,
 *   four pages per scatterlist, then check each copy's CRC-32C against its
 *   source through a new local map;
 * - else console DMA (lokal/console-dma.h, the AT91's DBGU PDC): a sender
 *   writes demo lines into highmem pages through local maps and sends them,
 *   so the console shows what the DMA read.
 *
 * The streaming DMA API does every cache operation: a missing one shows
 * as a CRC mismatch (or, on the emulator, as a model report).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <lokal/highmem.h>
#include <lokal/dma-mapping.h>
#include <lokal/dma-memcpy.h>
#include <lokal/console-dma.h>
#include <lokal/crc32c.h>
#include <lokal/thread.h>
#include <lokal/timeout.h>
#include <lokal/app.h>
#include "demo_dma.h"

#define COPIERS         2
#define SG_PAGES        4
#define DMA_ROUNDS      6
/* Per copier: its sources, its destinations and the holders' neighbours. */
#define PAGES_PER_COPIER (3 * SG_PAGES)

static volatile bool holders_stop;
static unsigned long holder_maps;

struct holder {
	struct page **pages;
	bool urgent;
};

/*
 * A holder keeps one neighbouring page mapped at a time and writes to it:
 * the urgent one sleeps a tick holding it, the other (at the copiers'
 * priority) yields holding it, and the tick preempts it: either way it is
 * switched out with a live map while a copier hands pages to the DMA.
 */
static void holder_fn(void *arg)
{
	struct holder *h = arg;
	unsigned int i = 0;

	while (!holders_stop) {
		uint32_t *p = kmap_local_page(h->pages[i % (COPIERS * SG_PAGES)]);

		p[i % (PAGE_SIZE / 4)] += 1;
		if (h->urgent) {
			sleep_ticks(1);
		} else {
			thread_yield();
			for (int k = 0; k < 200; k++)
				p[(i + (unsigned int)k * 8) % (PAGE_SIZE / 4)] ^= (uint32_t)k;
		}
		kunmap_local(p);
		holder_maps++;
		i++;
	}
}

struct copier {
	struct page **src, **dst;
	uint32_t seed;
	unsigned long copies, bad, errors;
};

static void fill_page(struct page *pg, uint32_t seed)
{
	uint32_t *p = kmap_local_page(pg);

	for (unsigned int w = 0; w < PAGE_SIZE / 4; w++)
		p[w] = seed * 0x9e3779b1u + w * 0x01000193u;
	kunmap_local(p);
}

static uint32_t page_crc(struct page *pg, uint32_t crc)
{
	uint8_t *p = kmap_local_page(pg);

	crc = crc32c(crc, p, PAGE_SIZE);
	kunmap_local(p);
	return crc;
}

static void copier_fn(void *arg)
{
	struct copier *c = arg;
	struct scatterlist s[SG_PAGES], d[SG_PAGES];

	for (int r = 0; r < DMA_ROUNDS; r++) {
		uint32_t want = 0, got = 0;
		int ret;

		sg_init_table(s, SG_PAGES);
		sg_init_table(d, SG_PAGES);
		for (int i = 0; i < SG_PAGES; i++) {
			fill_page(c->src[i], c->seed + (uint32_t)(r * SG_PAGES + i));
			thread_yield();         /* the holder runs, and is switched out mapped */
			want = page_crc(c->src[i], want);
			sg_set_page(&s[i], c->src[i], PAGE_SIZE, 0);
			sg_set_page(&d[i], c->dst[i], PAGE_SIZE, 0);
		}
		ret = dma_memcpy_sg(d, SG_PAGES, s, SG_PAGES, msecs_to_jiffies(1000));
		if (ret) {
			printf("demo: DMA copy failed: %d\n", ret);
			c->errors++;
			continue;
		}
		for (int i = 0; i < SG_PAGES; i++)
			got = page_crc(c->dst[i], got);
		c->bad += got != want;
		c->copies++;
	}
}

static unsigned long copy_work(struct page **pages)
{
	struct copier c[COPIERS];
	struct thread *t[COPIERS];
	unsigned long bad = 0, copies = 0, errors = 0;
	struct dma_memcpy_stats before, st;

	/* The engine's counts run since its setup (a shell may have run the bench before). */
	dma_memcpy_get_stats(&before);
	for (int i = 0; i < COPIERS; i++) {
		c[i] = (struct copier){ &pages[i * 2 * SG_PAGES], &pages[i * 2 * SG_PAGES + SG_PAGES],
					0x5eed0000u + (uint32_t)i * 0x1000u, 0, 0, 0 };
		t[i] = thread_create(i ? "dma-copier1" : "dma-copier0", copier_fn, &c[i],
				     PRIO_MAIN - 1, 2048);
	}
	for (int i = 0; i < COPIERS; i++) {
		thread_join(t[i]);
		copies += c[i].copies;
		bad += c[i].bad;
		errors += c[i].errors;
	}
	/* before is all zeros when this phase's first copy set the engine up */
	dma_memcpy_get_stats(&st);
	printf("demo: DMA: the %s copied %lu scatterlists of %d highmem pages (%lu KiB), %lu completion "
	       "interrupts, %lu errors\n", dma_memcpy_engine(), copies, SG_PAGES, copies * SG_PAGES * 4,
	       st.completion_irqs - before.completion_irqs, errors);
	printf("demo: DMA verification: %lu copies whose CRC-32C differs from the source's\n", bad);
	return bad + errors;
}

static unsigned long send_work(struct page **pages)
{
	const char *engine = console_dma_engine();
	unsigned long failed = 0;

	for (int r = 0; r < DMA_ROUNDS; r++) {
		struct page *pg = pages[r % (COPIERS * SG_PAGES)];
		unsigned int off = (unsigned int)r * 100;
		char *p = kmap_local_page(pg);
		int len = snprintf(p + off, PAGE_SIZE - off,
				   "demo: DMA: line %d, written through a local map of highmem page "
				   "pfn 0x%lx, sent by the %s\n", r + 1, page_to_pfn(pg), engine);

		kunmap_local(p);
		/* The sleep inside lets the holders run and switch while the engine reads. */
		if (console_dma_write(pg, off, (size_t)len, 1000) != 0)
			failed++;
	}
	printf("demo: DMA verification: %lu of %d sends by the %s failed\n", failed, DMA_ROUNDS, engine);
	return failed;
}

unsigned long demo_dma_phase(struct page **pages, unsigned long nr)
{
	struct holder hd[2] = { { &pages[COPIERS * 2 * SG_PAGES], true },
				{ &pages[COPIERS * 2 * SG_PAGES], false } };
	bool copy = dma_memcpy_engine() != NULL;
	struct thread *h[2];
	unsigned long bad;

	if (!copy && !console_dma_engine()) {
		printf("demo: DMA phase skipped: this board has no memory-to-memory or console DMA engine\n");
		return 0;
	}
	if (nr < COPIERS * PAGES_PER_COPIER) {
		printf("demo: DMA phase skipped: %lu spare highmem pages, %d needed\n",
		       nr, COPIERS * PAGES_PER_COPIER);
		return 0;
	}
	holders_stop = false;
	holder_maps = 0;
	h[0] = thread_create("dma-holder0", holder_fn, &hd[0], PRIO_MAIN + 1, 2048);
	h[1] = thread_create("dma-holder1", holder_fn, &hd[1], PRIO_MAIN - 1, 2048);
	bad = copy ? copy_work(pages) : send_work(pages);
	holders_stop = true;
	thread_join(h[0]);
	thread_join(h[1]);
	printf("demo: DMA: meanwhile two threads mapped the neighbouring pages %lu times; "
	       "DMA mappings left: %u\n", holder_maps, dma_mappings_live());
	return bad + dma_mappings_live();
}
