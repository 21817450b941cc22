/*
 * Fixed-block memory pools: blocks of one size carved from a region the
 * caller gives at creation. Each block has an 8-byte header before it,
 * which says whose it is: the pool while the block is allocated, the next
 * free block while it is free. Blocks are 8-byte aligned.
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
 * not an allocated block of this pool (another pointer, a pointer inside a
 * block, a block twice) is a reported bug naming the thread and the
 * address, exactly (no pointer is taken for a block by chance), as is a
 * NULL or uninitialised pool, a header overwritten by a write past the end
 * of the block before it, and a blocking call from an IRQ handler. The
 * region must be memory every context sees the same: a kmap_local region
 * is a reported bug. A waiter's block pointer is stored by the waiter
 * itself, after it wakes, so *block may be anywhere the caller may write.
 */
#ifndef LOKAL_MEMPOOL_H
#define LOKAL_MEMPOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <lokal/wait.h>
#include <lokal/handle.h>
#include <lokal/timeout.h>
#include <asm/irqflags.h>

/*
 * The 8 bytes before every block: the pool that owns it while it is
 * allocated, the next free block (NULL: the last) while it is free. A
 * free block's successor is never the pool, so one compare tells an
 * allocated block of the pool from a free one.
 */
union mempool_header {
	struct mempool *owner;
	void *next;
	uint64_t size;          /* 8 bytes on every host */
};

struct mempool {
	unsigned int magic;
	void *free_list;                /* the first free block, NULL if none */
	char *data;                     /* block 0; block i at data + i * stride, its header 8 bytes before */
	uintptr_t inverse;              /* (stride / 8)^-1 mod 2^N: mempool_is_block() */
	unsigned int nr_blocks;
	unsigned int stride;            /* header and block: 8 times an odd number */
	unsigned int carved;            /* blocks [carved, nr_blocks) never handed out yet */
	void *free_tail;                /* the free list's last block, while the list is not empty */
	struct wait_queue waiters;      /* by priority; wait_data: the block handed over */
};

/* Blocks are this aligned, and their size a multiple of it. */
#define MEMPOOL_BLOCK_ALIGN     8u
/*
 * A block and its header, in the pool: the size rounded up to a multiple
 * of 8, then 8 more for the header, then 8 more if that made an even
 * multiple of 8. An odd multiple lets mempool_is_block() rotate by a
 * constant instead of loading the rotation (Thread-Metric's memory shape,
 * events_memory in results.json: one instruction of 54 per event). It
 * costs nothing for 128-byte blocks (136 = 8 * 17), 8 bytes for 120.
 */
#define __MEMPOOL_STRIDE8(size) ((((size) ? (size_t)(size) : 1) + 7) / 8 + 1)
#define MEMPOOL_STRIDE(size)    (8 * (__MEMPOOL_STRIDE8(size) | 1))
/* A region mempool_init() makes at least nr blocks of size bytes of (alignment slack included). */
#define MEMPOOL_REGION_SIZE(size, nr)   ((nr) * MEMPOOL_STRIDE(size) + MEMPOOL_BLOCK_ALIGN - 1)
/*
 * The inverse of stride / 8 (odd) modulo 2^N (N the bits of a pointer),
 * by Newton's iteration (each step doubles the correct low bits, from 3):
 * a constant expression, for DEFINE_MEMPOOL.
 */
#define __MEMPOOL_NEWTON(x, m)  ((x) * (2 - (m) * (x)))
#define __MEMPOOL_INV3(m)       __MEMPOOL_NEWTON(__MEMPOOL_NEWTON(__MEMPOOL_NEWTON(m, m), m), m)
#define MEMPOOL_INVERSE(stride) __MEMPOOL_NEWTON(__MEMPOOL_NEWTON(__MEMPOOL_INV3((uintptr_t)(stride) / 8), \
	(uintptr_t)(stride) / 8), (uintptr_t)(stride) / 8)

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
	static uint64_t __mempool_blocks_##name[__MEMPOOL_COUNT(bsize, nblocks) * \
		MEMPOOL_STRIDE(bsize) / sizeof(uint64_t)];                      \
	static struct mempool name = {                                          \
		.magic = POOL_MAGIC,                                            \
		.free_list = NULL,                                              \
		.data = (char *)__mempool_blocks_##name + sizeof(union mempool_header), \
		.inverse = MEMPOOL_INVERSE(MEMPOOL_STRIDE(bsize)),              \
		.nr_blocks = (nblocks),                                         \
		.stride = MEMPOOL_STRIDE(bsize),                                \
		.carved = 0,                                                    \
		.waiters = WAIT_QUEUE_INIT((name).waiters),                     \
	}
#define __MEMPOOL_COUNT(size, n) ((n) + 0 * sizeof(char[(size) > 0 && (n) > 0 ? 1 : -1]))

/*
 * Set pool up over region (size bytes) for blocks of block_size bytes
 * (rounded up to a multiple of 8), each with its 8-byte header. Returns
 * the number of blocks (at least 1); a region of MEMPOOL_REGION_SIZE(
 * block_size, n) bytes holds n of them. A NULL
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

/* The header in front of block (the inline fast paths' helper). */
static inline union mempool_header *mempool_header(void *block)
{
	return (union mempool_header *)block - 1;
}

/* Block i of pool (i < nr_blocks). */
static inline char *mempool_block_at(const struct mempool *pool, unsigned int i)
{
	return pool->data + (size_t)i * pool->stride;
}

/*
 * block's index in pool, exactly, in three instructions, or a value at
 * least nr_blocks if block is no block of pool: with stride = 8 * odd, an
 * offset is a multiple of stride below nr_blocks * stride exactly when
 * (offset * odd^-1) rotated right by 3 is below nr_blocks, and it is then
 * the index.
 */
static inline uintptr_t mempool_block_index(const struct mempool *pool, const void *block)
{
	const unsigned int bits = sizeof(uintptr_t) * 8;
	uintptr_t x = ((uintptr_t)block - (uintptr_t)pool->data) * pool->inverse;

	return (x >> 3) | (x << (bits - 3));
}

/* Whether block is one of pool's blocks (allocated or not), exactly. */
static inline bool mempool_is_block(const struct mempool *pool, const void *block)
{
	return mempool_block_index(pool, block) < pool->nr_blocks;
}

/* Take b, the free list's first block, and mark it pool's (IRQs off). */
static inline void mempool_take_first(struct mempool *pool, void *b)
{
	pool->free_list = mempool_header(b)->next;
	mempool_header(b)->owner = pool;
}

static inline int mempool_alloc(struct mempool *pool, void **block, long timeout)
{
	unsigned long flags;
	void *b;

	might_sleep_timed(timeout, __func__);
	flags = arch_local_irq_save_svc();     /* threads and IRQ handlers */
	/*
	 * No NULL test, as in up(): a NULL pool faults on the magic's load, in
	 * the NULL page, and the abort report names the thread and the address.
	 */
	if (__builtin_expect(pool->magic != POOL_MAGIC, 0))
		bad_handle(pool, "memory pool", "mempool_alloc");
	b = pool->free_list;
	if (__builtin_expect(b == NULL, 0))
		return __mempool_alloc_wait(pool, block, timeout, flags);
	*block = b;             /* a NULL block pointer faults here, naming the thread */
	mempool_take_first(pool, b);
	arch_local_irq_restore(flags);
	return 0;
}

static inline void mempool_free(struct mempool *pool, void *block)
{
	unsigned long flags = arch_local_irq_save_svc();        /* threads and IRQ handlers */
	void *next;

	/*
	 * No magic test here: a block's header holds the pool's address only
	 * if this pool handed it out, so an uninitialised pool (or a NULL one,
	 * which faults on the load, naming the thread) never passes the two
	 * tests; the slow path then reports it.
	 */
	if (__builtin_expect(!mempool_is_block(pool, block), 0))
		goto slow;
	if (__builtin_expect(mempool_header(block)->owner != pool, 0))
		goto slow;
	/*
	 * A thread waits only while no block is free: with the free list not
	 * empty there is nobody to hand this block to (one test, not two).
	 */
	next = pool->free_list;
	if (__builtin_expect(next == NULL, 0))
		goto slow;
	mempool_header(block)->next = next;
	pool->free_list = block;
	arch_local_irq_restore(flags);
	return;
slow:
	__mempool_free_slow(pool, block, flags);
}

#endif
