/*
 * Fixed-block memory pools: blocks of one size carved from a region the
 * caller gives at creation (the pool's own bookkeeping, one bit per block,
 * sits at the region's start). Blocks are 8-byte aligned.
 *
 *   static uint8_t region[4096];
 *   static struct mempool pool;
 *   mempool_init(&pool, region, sizeof(region), 128);
 *   void *b;
 *   if (mempool_alloc(&pool, &b, msecs_to_jiffies(10)) == 0) { ...; mempool_free(&pool, b); }
 *
 * A thread waiting for a block gets the next freed block handed to it, the
 * most urgent waiter first (FIFO among equals). Freeing anything that is
 * not an allocated block of this pool (another pointer, a block twice) is
 * a reported bug naming the thread and the address, as is a NULL or
 * uninitialised pool, and a blocking call from an IRQ handler.
 */
#ifndef LOKAL_MEMPOOL_H
#define LOKAL_MEMPOOL_H

#include <stddef.h>
#include <stdint.h>
#include <lokal/wait.h>
#include <lokal/handle.h>

struct mempool {
	unsigned int magic;
	void *free_list;                /* each free block's first word: the next */
	char *blocks, *end;             /* the blocks: [blocks, end) */
	uint32_t *allocated;            /* one bit per block */
	unsigned int block_size;
	uint32_t recip;                 /* 2^32 / block_size, rounded up: index without a divide */
	unsigned int nr_blocks, nr_free;
	struct wait_queue waiters;      /* by priority; wait_data: the block handed over */
};

/*
 * Set pool up over region (size bytes) for blocks of block_size bytes
 * (rounded up to 8). Returns the number of blocks (at least 1). A NULL
 * pool or region, a zero block size, or a region too small for one block
 * is a reported bug. Threads or boot code.
 */
unsigned int mempool_init(struct mempool *pool, void *region, size_t size, size_t block_size);
/*
 * Put a block in *block, waiting up to timeout ticks (lokal/timeout.h) for
 * one to be freed: 0 done, -EAGAIN none free and timeout 0, -ETIMEDOUT the
 * time ran out first (*block is then NULL). Threads only, unless timeout is 0.
 */
int mempool_alloc(struct mempool *pool, void **block, long timeout);
/* A free block or NULL, never waiting; callable from IRQ handlers. */
void *mempool_try_alloc(struct mempool *pool);
/* Give block back (to the most urgent waiter, if any); callable from IRQ handlers. */
void mempool_free(struct mempool *pool, void *block);
/* Blocks free now (a snapshot). */
unsigned int mempool_nr_free(struct mempool *pool);

#endif
