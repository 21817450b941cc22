/*
 * Fixed-block memory pools: blocks of one size carved from a region the
 * caller gives at creation (the pool's own bookkeeping, one byte per block,
 * sits at the region's start). Blocks are 8-byte aligned and hold two words at least.
 *
 *   DEFINE_MEMPOOL(pool, 128, 30);           thirty 128-byte blocks, storage included
 * or, over a region of the caller's, at run time:
 *   static uint8_t region[4096];
 *   mempool_init(&pool, region, sizeof(region), 128);
 *   void *b;
 *   if (mempool_alloc(&pool, &b, msecs_to_jiffies(10)) == 0) { ...; mempool_free(&pool, b); }
 *
 * A thread waiting for a block gets the next freed block handed to it, the
 * most urgent waiter first (FIFO among equals). Freeing anything that is
 * not an allocated block of this pool (another pointer, a block twice) is
 * a reported bug naming the thread and the address, as is a NULL or
 * uninitialised pool, and a blocking call from an IRQ handler. The region
 * must be memory every context sees the same: a kmap_local region is a
 * reported bug. A waiter's block pointer is stored by the waiter itself,
 * after it wakes, so *block may be anywhere the caller may write.
 */
#ifndef LOKAL_MEMPOOL_H
#define LOKAL_MEMPOOL_H

#include <stddef.h>
#include <stdint.h>
#include <lokal/wait.h>
#include <lokal/handle.h>
#include <lokal/timeout.h>
#include <asm/irqflags.h>

/* A free block holds its successor on the free list and its own index. */
struct mempool_free_block {
	struct mempool_free_block *next;
	uint32_t index;
};

struct mempool {
	unsigned int magic;
	void *free_list;                /* each free block: the next, its index */
	char *blocks;                   /* nr_blocks blocks of block_size bytes */
	uint8_t *allocated;             /* one state byte per block */
	unsigned int block_size;
	uint32_t recip;                 /* 2^32 / block_size, rounded up: index without a divide */
	unsigned int nr_blocks;
	unsigned int carved;            /* blocks [carved, nr_blocks) never handed out yet */
	struct wait_queue waiters;      /* by priority; wait_data: the block handed over */
};

/* Blocks are this aligned, and their size a multiple of it. */
#define MEMPOOL_BLOCK_ALIGN     8u
/* A block's size in the pool: at least two words, a multiple of the alignment. */
#define MEMPOOL_BLOCK_SIZE(size)                                                \
	((((size) < sizeof(struct mempool_free_block) ?                         \
	   sizeof(struct mempool_free_block) : (size)) + MEMPOOL_BLOCK_ALIGN - 1) \
	 & ~(size_t)(MEMPOOL_BLOCK_ALIGN - 1))
/* 2^32 / block size, rounded up: a block's index from its offset without a divide. */
#define MEMPOOL_RECIP(bsize)    ((uint32_t)(((1ull << 32) + (bsize) - 1) / (bsize)))

/*
 * A pool of nr_blocks blocks of block_size bytes with its storage, all
 * static at file scope, ready at boot with no mempool_init() call (blocks
 * are handed out from the storage in order the first time, then from the
 * free list); other files reach it through &name:
 *   DEFINE_MEMPOOL(buffers, 256, 8);
 * The macro says static itself (as DEFINE_MSGQ does): do not add it. A
 * zero size or count does not compile.
 */
#define DEFINE_MEMPOOL(name, bsize, nblocks)                                    \
	static uint8_t __mempool_state_##name[__MEMPOOL_COUNT(bsize, nblocks)]; \
	static uint64_t __mempool_blocks_##name[(nblocks) *                     \
		MEMPOOL_BLOCK_SIZE(bsize) / sizeof(uint64_t)];                  \
	static struct mempool name = {                                          \
		.magic = POOL_MAGIC,                                            \
		.free_list = NULL,                                              \
		.blocks = (char *)__mempool_blocks_##name,                      \
		.allocated = __mempool_state_##name,                            \
		.block_size = MEMPOOL_BLOCK_SIZE(bsize),                        \
		.recip = MEMPOOL_RECIP(MEMPOOL_BLOCK_SIZE(bsize)),              \
		.nr_blocks = (nblocks),                                         \
		.carved = 0,                                                    \
		.waiters = WAIT_QUEUE_INIT((name).waiters),                     \
	}
#define __MEMPOOL_COUNT(size, n) ((n) + 0 * sizeof(char[(size) > 0 && (n) > 0 ? 1 : -1]))

/*
 * Set pool up over region (size bytes) for blocks of block_size bytes
 * (at least two words, rounded up to a multiple of 8). Returns the number of blocks (at least 1). A NULL
 * pool or region, a zero block size, or a region too small for one block
 * is a reported bug. Threads or boot code.
 */
unsigned int mempool_init(struct mempool *pool, void *region, size_t size, size_t block_size);
/*
 * Put a block in *block, waiting up to timeout ticks (lokal/timeout.h) for
 * one to be freed: 0 done, -EAGAIN none free and timeout 0, -ETIMEDOUT the
 * time ran out first (*block is then NULL). Threads only, unless timeout is 0.
 */
static inline int mempool_alloc(struct mempool *pool, void **block, long timeout);
/* A free block or NULL, never waiting; callable from IRQ handlers. */
void *mempool_try_alloc(struct mempool *pool);
/* Give block back (to the most urgent waiter, if any); callable from IRQ handlers. */
static inline void mempool_free(struct mempool *pool, void *block);
/* Blocks free now (a snapshot). */
unsigned int mempool_nr_free(struct mempool *pool);


/*
 * The fast paths are inline: a block taken or given back with nothing to
 * wait for or to hand over costs no call. The rest is in mempool.c.
 */
int __mempool_alloc_wait(struct mempool *pool, void **block, long timeout, unsigned long flags);
void __mempool_free_slow(struct mempool *pool, void *block, unsigned long flags);

static inline int mempool_alloc(struct mempool *pool, void **block, long timeout)
{
	unsigned long flags;
	struct mempool_free_block *b;

	might_sleep_timed(timeout, __func__);
	flags = arch_local_irq_save_svc();     /* threads and IRQ handlers */
	if (__builtin_expect(!pool || pool->magic != POOL_MAGIC, 0))
		bad_handle(pool, "memory pool", "mempool_alloc");
	b = (struct mempool_free_block *)pool->free_list;
	if (__builtin_expect(b == NULL, 0))
		return __mempool_alloc_wait(pool, block, timeout, flags);
	pool->free_list = b->next;
	pool->allocated[b->index] = 1;
	arch_local_irq_restore(flags);
	*block = b;             /* a NULL block pointer faults here, naming the thread */
	return 0;
}

static inline void mempool_free(struct mempool *pool, void *block)
{
	unsigned long flags = arch_local_irq_save_svc();        /* threads and IRQ handlers */
	struct mempool_free_block *b = (struct mempool_free_block *)block, *next;
	uint32_t off, idx;

	if (__builtin_expect(!pool || pool->magic != POOL_MAGIC, 0))
		bad_handle(pool, "memory pool", "mempool_free");
	/* The index by a multiply (ARMv5 has no divide); it must map back to block. */
	off = (uint32_t)((uintptr_t)block - (uintptr_t)pool->blocks);
	idx = (uint32_t)(((uint64_t)off * pool->recip) >> 32);
	/*
	 * A thread waits only while no block is free: with the free list not
	 * empty there is nobody to hand this block to (one test, not two).
	 */
	next = (struct mempool_free_block *)pool->free_list;
	if (__builtin_expect(idx >= pool->nr_blocks || idx * pool->block_size != off ||
			     !pool->allocated[idx] || next == NULL, 0)) {
		__mempool_free_slow(pool, block, flags);
		return;
	}
	pool->allocated[idx] = 0;
	b->next = next;
	b->index = idx;
	pool->free_list = b;
	arch_local_irq_restore(flags);
}

#endif
