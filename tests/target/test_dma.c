/*
 * DMA memcpy through the PL080 (drivers/pl080.c) and the streaming DMA
 * API: the data arrives (CRC-32C), completion comes by interrupt, the
 * channels are a counted resource, bad requests are refused, and nothing
 * is left mapped. QEMU has no cache, so here the cache maintenance cannot
 * fail; the host model (tests/host/test_dma.c) proves that.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <lokal/highmem.h>
#include <lokal/dma-mapping.h>
#include <lokal/crc32c.h>
#include <lokal/thread.h>
#include <lokal/mutex.h>
#include <lokal/timeout.h>
#include <lokal/app.h>
#include <board.h>
#include "ktest.h"

#ifdef BOARD_PL080_BASE
#include <drivers/pl080.h>

#define NPG 16

static struct page *src_pg[NPG], *dst_pg[NPG];

static uint32_t fill_page(struct page *pg, uint32_t seed)
{
	uint32_t *p = kmap_local_page(pg), crc;

	for (unsigned int w = 0; w < PAGE_SIZE / 4; w++)
		p[w] = seed * 0x9e3779b1u + w * 0x01000193u;
	crc = crc32c(0, p, PAGE_SIZE);
	kunmap_local(p);
	return crc;
}

static uint32_t crc_range(struct page *pg, unsigned int off, unsigned int len, uint32_t crc)
{
	uint8_t *p = kmap_local_page(pg);

	crc = crc32c(crc, p + off, len);
	kunmap_local(p);
	return crc;
}

static void setup(void)
{
	for (int i = 0; i < NPG; i++) {
		src_pg[i] = alloc_page(i % 4 == 3 ? ZONE_LOWMEM : ZONE_HIGHMEM);
		dst_pg[i] = alloc_page(i % 5 == 4 ? ZONE_LOWMEM : ZONE_HIGHMEM);
		KT_ASSERT(src_pg[i] && dst_pg[i]);
	}
	KT_ASSERT_EQ(pl080_init(BOARD_PL080_BASE, BOARD_PL080_IRQ), 0);
}

/* One highmem page to another: the data, one interrupt, nothing left mapped. */
static void copy_one_highmem_page(void)
{
	struct scatterlist s, d;
	struct pl080_stats before, after;
	uint32_t crc = fill_page(src_pg[0], 1);

	fill_page(dst_pg[0], 2);
	sg_init_table(&s, 1);
	sg_init_table(&d, 1);
	sg_set_page(&s, src_pg[0], PAGE_SIZE, 0);
	sg_set_page(&d, dst_pg[0], PAGE_SIZE, 0);
	pl080_get_stats(&before);
	KT_ASSERT_EQ(pl080_memcpy_sg(&d, 1, &s, 1, 0, msecs_to_jiffies(1000)), 0);
	pl080_get_stats(&after);
	KT_ASSERT_EQ(crc_range(dst_pg[0], 0, PAGE_SIZE, 0), crc);
	KT_ASSERT_EQ(after.tc_irqs - before.tc_irqs, 1);
	KT_ASSERT_EQ(after.transfers - before.transfers, 1);
	KT_ASSERT_EQ(dma_mappings_live(), 0);
}

/*
 * 16 pages into 16 others cut differently: odd offsets and lengths, so the
 * chain has byte items, word items, and items split at every boundary.
 */
static void copy_16_page_scatterlist(void)
{
	struct scatterlist s[NPG], d[NPG + 1];
	uint32_t want = 0, got = 0;
	unsigned long total = 0, dtotal = 0;

	sg_init_table(s, NPG);
	sg_init_table(d, NPG + 1);
	for (int i = 0; i < NPG; i++) {
		unsigned int off = (unsigned int)(i * 12) % 64, len = PAGE_SIZE - off - (unsigned int)(i % 3);

		fill_page(src_pg[i], 10 + (uint32_t)i);
		fill_page(dst_pg[i], 50 + (uint32_t)i);
		sg_set_page(&s[i], src_pg[i], len, off);
		want = crc_range(src_pg[i], off, len, want);
		total += len;
	}
	/* The destination: each page from byte 3 (the last entry takes the rest). */
	for (int i = 0; i < NPG && dtotal < total; i++) {
		unsigned int len = PAGE_SIZE - 3;

		if (total - dtotal < len)
			len = (unsigned int)(total - dtotal);
		sg_set_page(&d[i], dst_pg[i], len, 3);
		dtotal += len;
	}
	KT_ASSERT_EQ(dtotal, total);
	KT_ASSERT_EQ(pl080_memcpy_sg(d, NPG, s, NPG, 0, msecs_to_jiffies(1000)), 0);
	for (int i = 0; i < NPG && d[i].length; i++)
		got = crc_range(dst_pg[i], 3, d[i].length, got);
	KT_ASSERT_EQ(got, want);
	KT_ASSERT_EQ(dma_mappings_live(), 0);
}

static void bad_requests_are_refused(void)
{
	struct scatterlist s, d;

	sg_init_table(&s, 1);
	sg_init_table(&d, 1);
	sg_set_page(&s, src_pg[0], 100, 0);
	sg_set_page(&d, dst_pg[0], 99, 0);
	KT_ASSERT_EQ(pl080_memcpy_sg(&d, 1, &s, 1, 0, 10), -EINVAL);
	sg_set_page(&s, src_pg[0], 0, 0);
	sg_set_page(&d, dst_pg[0], 0, 0);
	KT_ASSERT_EQ(pl080_memcpy_sg(&d, 1, &s, 1, 0, 10), -EINVAL);
	KT_ASSERT_EQ(dma_mappings_live(), 0);
}

/* All 8 channels held: NOWAIT gets -EBUSY, a sleeper runs once one is released. */
static volatile int sleeper_ret = 1;

static void sleeper(void *arg)
{
	struct scatterlist s, d;

	(void)arg;
	sg_init_table(&s, 1);
	sg_init_table(&d, 1);
	sg_set_page(&s, src_pg[1], 512, 0);
	sg_set_page(&d, dst_pg[1], 512, 0);
	sleeper_ret = pl080_memcpy_sg(&d, 1, &s, 1, 0, msecs_to_jiffies(1000));
}

static void channels_are_counted(void)
{
	int held[PL080_CHANNELS];
	struct scatterlist s, d;
	struct thread *t;
	uint32_t crc = fill_page(src_pg[1], 3);

	for (int i = 0; i < PL080_CHANNELS; i++)
		KT_ASSERT((held[i] = pl080_request_chan(PL080_NOWAIT)) >= 0);
	KT_ASSERT_EQ(pl080_request_chan(PL080_NOWAIT), -EBUSY);
	sg_init_table(&s, 1);
	sg_init_table(&d, 1);
	sg_set_page(&s, src_pg[1], 512, 0);
	sg_set_page(&d, dst_pg[1], 512, 0);
	KT_ASSERT_EQ(pl080_memcpy_sg(&d, 1, &s, 1, PL080_NOWAIT, 10), -EBUSY);
	KT_ASSERT_EQ(dma_mappings_live(), 0);
	sleeper_ret = 1;
	t = thread_create("sleeper", sleeper, NULL, PRIO_MAIN + 1, 0);
	KT_ASSERT(t);
	sleep_ticks(2);
	KT_ASSERT_EQ(sleeper_ret, 1);           /* still waiting for a channel */
	pl080_release_chan(held[0]);
	thread_join(t);
	KT_ASSERT_EQ(sleeper_ret, 0);
	for (int i = 1; i < PL080_CHANNELS; i++)
		pl080_release_chan(held[i]);
	KT_ASSERT_EQ(crc_range(dst_pg[1], 0, 512, 0), crc_range(src_pg[1], 0, 512, 0));
	(void)crc;
}

/*
 * A thread preempted while it holds a local map of the source page (its
 * lines may still be in that slot, deferred) while another copies it.
 */
static struct semaphore holder_go;

static void holder(void *arg)
{
	uint32_t *p = kmap_local_page(src_pg[2]);

	(void)arg;
	/* Read first: the D-cache allocates on reads only, so the writes stay in its lines. */
	for (unsigned int w = 0; w < PAGE_SIZE / 4; w += 8)
		(void)*(volatile uint32_t *)&p[w];
	for (unsigned int w = 0; w < PAGE_SIZE / 4; w++)
		p[w] = 0xa5a50000u + w;
	down(&holder_go);
	kunmap_local(p);
}

static void copy_page_another_thread_holds_mapped(void)
{
	struct scatterlist s, d;
	struct thread *t;
	uint32_t want;

	sema_init(&holder_go, 0);
	t = thread_create("holder", holder, NULL, PRIO_MAIN + 1, 0);
	KT_ASSERT(t);
	sg_init_table(&s, 1);
	sg_init_table(&d, 1);
	sg_set_page(&s, src_pg[2], PAGE_SIZE, 0);
	sg_set_page(&d, dst_pg[2], PAGE_SIZE, 0);
	KT_ASSERT_EQ(pl080_memcpy_sg(&d, 1, &s, 1, 0, msecs_to_jiffies(1000)), 0);
	up(&holder_go);
	thread_join(t);
	want = crc_range(src_pg[2], 0, PAGE_SIZE, 0);
	KT_ASSERT_EQ(crc_range(dst_pg[2], 0, PAGE_SIZE, 0), want);
}

/*
 * A copy given no time at all. QEMU finishes a transfer inside the call, so
 * there it completes; the emulator's PL080 takes its time, so there it
 * times out: the channel is stopped before the caller gets its buffers back
 * (nothing lands in the destination afterwards), nothing stays mapped, and
 * the channel serves the next copy.
 */
static void copy_that_times_out_leaves_nothing_behind(void)
{
	struct scatterlist s, d;
	struct pl080_stats before, after;
	uint32_t want = fill_page(src_pg[3], 7), old = fill_page(dst_pg[3], 8), now;
	int ret;

	sg_init_table(&s, 1);
	sg_init_table(&d, 1);
	sg_set_page(&s, src_pg[3], PAGE_SIZE, 0);
	sg_set_page(&d, dst_pg[3], PAGE_SIZE, 0);
	pl080_get_stats(&before);
	ret = pl080_memcpy_sg(&d, 1, &s, 1, 0, 0);
	pl080_get_stats(&after);
	KT_ASSERT_EQ(dma_mappings_live(), 0);
	now = crc_range(dst_pg[3], 0, PAGE_SIZE, 0);
	printf("test_dma: a copy with no time %s\n", ret == -ETIMEDOUT ? "timed out" : "finished inside the call");
	if (ret == -ETIMEDOUT) {
		KT_ASSERT_EQ(after.timeouts - before.timeouts, 1);
		sleep_ticks(2);         /* a transfer left running would have landed by now */
		KT_ASSERT_EQ(crc_range(dst_pg[3], 0, PAGE_SIZE, 0), now);
		KT_ASSERT(now == old || now == want);
	} else {
		KT_ASSERT_EQ(ret, 0);
		KT_ASSERT_EQ(now, want);
	}
	KT_ASSERT_EQ(pl080_memcpy_sg(&d, 1, &s, 1, 0, msecs_to_jiffies(1000)), 0);
	KT_ASSERT_EQ(crc_range(dst_pg[3], 0, PAGE_SIZE, 0), want);
	KT_ASSERT_EQ(dma_mappings_live(), 0);
}

KTEST_MAIN(KTEST(setup), KTEST(copy_one_highmem_page), KTEST(copy_16_page_scatterlist),
	   KTEST(bad_requests_are_refused), KTEST(channels_are_counted),
	   KTEST(copy_page_another_thread_holds_mapped),
	   KTEST(copy_that_times_out_leaves_nothing_behind))

#else

/*
 * The AT91SAM9G20-EK: console output sent by the DBGU's PDC from a highmem
 * page the caller holds mapped with dirty lines (tests.list expects the
 * text on the console; the emulator checks the PDC read clean memory).
 */
#include <drivers/atmel_dbgu.h>

static void dbgu_pdc_sends_a_highmem_buffer(void)
{
	static const char msg[] = "PDC: sent from a highmem page\n";
	struct page *pg = alloc_page(ZONE_HIGHMEM);
	char *va;

	KT_ASSERT(pg);
	va = kmap_local_page(pg);
	/* Read first: the D-cache allocates on reads only, so the text stays in dirty lines. */
	for (unsigned int i = 0; i < 256; i += 32)
		(void)*(volatile char *)(va + 64 + i);
	memcpy(va + 100, msg, sizeof(msg) - 1);
	KT_ASSERT_EQ(atmel_dbgu_pdc_write(BOARD_DBGU_BASE, pg, 100, sizeof(msg) - 1, 100), 0);
	kunmap_local(va);
	KT_ASSERT_EQ(dma_mappings_live(), 0);
	KT_ASSERT_EQ(atmel_dbgu_pdc_write(BOARD_DBGU_BASE, pg, PAGE_SIZE - 1, 2, 10), -EINVAL);
	__free_page(pg);
}

KTEST_MAIN(KTEST(dbgu_pdc_sends_a_highmem_buffer))

#endif
