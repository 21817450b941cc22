/*
 * The example application (docs/user-guide.md, "Your own application"): a producer
 * and a consumer over a message queue. The producer fills blocks from a
 * fixed-block pool and queues them with their CRC; the consumer has each
 * block copied into a highmem page by the board's memory-to-memory DMA
 * (by the CPU where the board has none), checks the copy through a local
 * map and gives the block back. Every wait has a time-out; the last one,
 * once the producer is done, runs out as it should.
 *
 * It uses only the kernel's API: no board header, no #ifdef for the board.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <lokal/app.h>
#include <lokal/crc32c.h>
#include <lokal/dma-memcpy.h>
#include <lokal/highmem.h>
#include <lokal/mempool.h>
#include <lokal/msgqueue.h>
#include <lokal/thread.h>
#include <lokal/timeout.h>

#define BLOCKS          64      /* the producer's whole output */
#define BLOCK_BYTES     256

struct filled {
	uint8_t *block;
	uint32_t seq;
	uint32_t crc;
};

/* Four blocks in flight at most, two of them queued: the producer waits for both. */
DEFINE_MEMPOOL(buffers, BLOCK_BYTES, 4);
DEFINE_MSGQ(queue, sizeof(struct filled), 2);

static struct {
	unsigned long produced, consumed, by_dma, bad, errors;
	int last_wait;
} count;

static void producer(void *arg)
{
	(void)arg;
	for (uint32_t seq = 0; seq < BLOCKS; seq++) {
		struct filled f = { .seq = seq };
		void *b;

		/* The consumer gives blocks back well within half a second. */
		if (mempool_alloc(&buffers, &b, msecs_to_jiffies(500))) {
			count.errors++;
			return;
		}
		f.block = b;
		for (unsigned int i = 0; i < BLOCK_BYTES; i++)
			f.block[i] = (uint8_t)(seq * 7 + i);
		f.crc = crc32c(0, f.block, BLOCK_BYTES);
		if (msgq_send(&queue, &f, msecs_to_jiffies(500))) {
			mempool_free(&buffers, b);
			count.errors++;
			return;
		}
		count.produced++;
	}
}

/* The block's bytes into the page at offset: by DMA where the board has it. */
static int copy_to_page(struct page *page, unsigned int offset, uint8_t *block)
{
	struct scatterlist src, dst;
	void *p;

	if (dma_memcpy_engine()) {
		sg_init_table(&src, 1);
		sg_init_table(&dst, 1);
		sg_set_page(&src, virt_to_page(block), BLOCK_BYTES,
			    (unsigned int)((uintptr_t)block % PAGE_SIZE));
		sg_set_page(&dst, page, BLOCK_BYTES, offset);
		return dma_memcpy_sg(&dst, 1, &src, 1, msecs_to_jiffies(100));
	}
	p = kmap_local_page(page);
	memcpy((uint8_t *)p + offset, block, BLOCK_BYTES);
	kunmap_local(p);
	return 0;
}

static void consumer(void *arg)
{
	struct page *page = arg;
	struct filled f;
	int ret;

	/* Waits for the next block; once the producer stops, the wait runs out. */
	while ((ret = msgq_receive(&queue, &f, msecs_to_jiffies(200))) == 0) {
		unsigned int offset = (f.seq * BLOCK_BYTES) % PAGE_SIZE;
		uint8_t *p;

		if (copy_to_page(page, offset, f.block)) {
			count.errors++;
		} else {
			p = kmap_local_page(page);
			count.bad += crc32c(0, p + offset, BLOCK_BYTES) != f.crc;
			kunmap_local(p);
			count.by_dma += dma_memcpy_engine() != NULL;
		}
		mempool_free(&buffers, f.block);
		count.consumed++;
	}
	count.last_wait = ret;
}

int app_main(void)
{
	struct page *page = alloc_page(ZONE_HIGHMEM);
	struct thread *prod, *cons;
	const char *engine = dma_memcpy_engine();

	if (!page)
		page = alloc_page(ZONE_LOWMEM);         /* a board without highmem */
	if (!page) {
		printf("pipeline: no free page\n");
		return 1;
	}
	/* The consumer is the more urgent: a queued block is taken at once. */
	cons = thread_create("consumer", consumer, page, PRIO_MAIN + 2, 2048);
	prod = thread_create("producer", producer, NULL, PRIO_MAIN + 1, 2048);
	if (!cons || !prod) {
		printf("pipeline: cannot create the threads\n");
		return 1;
	}
	thread_join(prod);
	thread_join(cons);
	__free_page(page);
	printf("pipeline: %lu blocks produced, %lu consumed, %lu copied by %s%s, %lu bad, %lu errors\n",
	       count.produced, count.consumed, engine ? count.by_dma : count.consumed,
	       engine ? engine : "the CPU", engine ? " DMA" : " (no memory-to-memory DMA here)",
	       count.bad, count.errors);
	printf("pipeline: the consumer's last wait: %s\n",
	       count.last_wait == -ETIMEDOUT ? "timed out, as it should once the producer is done" :
	       "did not time out");
	return count.produced == BLOCKS && count.consumed == BLOCKS && !count.bad &&
	       !count.errors && count.last_wait == -ETIMEDOUT ? 0 : 1;
}
