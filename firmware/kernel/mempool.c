/*
 * Fixed-block pools (see lokal/mempool.h). A free block holds the next free
 * block in its first word and its own index in its second (so blocks are
 * at least 8 bytes); one state byte per block, at the region's start, says
 * whether it is allocated. That byte is what catches a double free, and
 * the index a freed pointer maps to is what catches a foreign one,
 * exactly: it comes from a multiply (ARMv5 has no divide) and must map
 * back to the same address.
 */
#include <lokal/mempool.h>
#include <lokal/highmem-internal.h>
#include <lokal/timeout.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

unsigned int mempool_init(struct mempool *pool, void *region, size_t size, size_t block_size)
{
	uintptr_t start = (uintptr_t)region, end = start + size, blocks;
	unsigned int n;

	if (pool && kmap_local_addr(region))
		panic("mempool_init(%p, %p) in thread '%s': the region is a kmap_local address, "
		      "valid only in the thread that mapped it; every user of the pool uses it "
		      "(give it lowmem or a kmap() address)", (void *)pool, region, current->name);
	if (!pool || !region || block_size == 0 || block_size > size)
		panic("mempool_init(%p, %p, %u, %u) in thread '%s': %s", (void *)pool, region,
		      (unsigned)size, (unsigned)block_size, current->name,
		      !pool ? "NULL pool" : !region ? "NULL region" :
		      block_size == 0 ? "block size 0" : "region smaller than a block");
	block_size = MEMPOOL_BLOCK_SIZE(block_size);
	/* As many blocks as fit beside their state bytes. */
	for (n = (unsigned int)(size / block_size); n; n--) {
		blocks = (start + n + MEMPOOL_BLOCK_ALIGN - 1) & ~(uintptr_t)(MEMPOOL_BLOCK_ALIGN - 1);
		if (blocks + (uintptr_t)n * block_size <= end)
			break;
	}
	if (n == 0)
		panic("mempool_init(%p, %p, %u, %u) in thread '%s': region too small for one block",
		      (void *)pool, region, (unsigned)size, (unsigned)block_size, current->name);
	pool->allocated = (uint8_t *)start;
	pool->blocks = (char *)blocks;
	pool->block_size = (unsigned int)block_size;
	pool->recip = MEMPOOL_RECIP(block_size);
	pool->nr_blocks = n;
	pool->free_list = NULL;
	for (unsigned int i = n; i-- > 0;) {
		struct mempool_free_block *b = (struct mempool_free_block *)(pool->blocks + (size_t)i * block_size);

		pool->allocated[i] = 0;
		b->next = pool->free_list;
		b->index = i;
		pool->free_list = b;
	}
	pool->carved = n;               /* every block is on the free list already */
	init_waitqueue(&pool->waiters);
	pool->magic = POOL_MAGIC;
	return n;
}

/*
 * IRQs off. A block never handed out yet, from a DEFINE_MEMPOOL pool's
 * storage (mempool_init() puts every block on the free list), marked; or NULL.
 */
static void *carve_block(struct mempool *pool)
{
	unsigned int i = pool->carved;

	if (i >= pool->nr_blocks)
		return NULL;
	pool->carved = i + 1;
	pool->allocated[i] = 1;
	return pool->blocks + (size_t)i * pool->block_size;
}

/* IRQs off. The first free block, taken and marked, or NULL. */
static inline void *take_block(struct mempool *pool)
{
	struct mempool_free_block *b = pool->free_list;

	if (__builtin_expect(b != NULL, 1)) {
		pool->free_list = b->next;
		pool->allocated[b->index] = 1;
		return b;
	}
	return carve_block(pool);
}

void *mempool_try_alloc(struct mempool *pool)
{
	unsigned long flags = arch_local_irq_save();
	void *b;

	check_handle(pool, POOL_MAGIC, "memory pool");
	b = take_block(pool);
	arch_local_irq_restore(flags);
	return b;
}

/*
 * The free list empty: a block never handed out yet, if any; else fail, or
 * wait for mempool_free() to hand one over. IRQs off on entry.
 */
int __mempool_alloc_wait(struct mempool *pool, void **block, long timeout, unsigned long flags)
{
	void *b = carve_block(pool);
	int ret = b ? 0 : -EAGAIN;

	if (!b && timeout) {
		current->wait_data = NULL;
		ret = sleep_on_deadline(&pool->waiters, timeout_deadline(timeout), true);
		if (ret == 0)
			b = current->wait_data;
	}
	arch_local_irq_restore(flags);
	*block = b;
	return ret;
}

static void __attribute__((noreturn, noinline, cold)) bad_free(struct mempool *pool, void *block,
							       bool twice)
{
	panic("mempool_free(%p, %p) in thread '%s'%s: %s", (void *)pool, block, current->name,
	      in_irq() ? " (in IRQ)" : "",
	      twice ? "block already free (double free)" : "not a block of this pool");
}

/*
 * What mempool_free()'s fast path left: a pointer that is no block of the
 * pool or a block already free (reported), a waiter to hand the block to
 * straight away (it stays allocated), or, the free list being empty, a
 * block to put back with nobody waiting. IRQs off on entry.
 */
void __mempool_free_slow(struct mempool *pool, void *block, unsigned long flags)
{
	uint32_t off = (uint32_t)((uintptr_t)block - (uintptr_t)pool->blocks);
	uint32_t idx = (uint32_t)(((uint64_t)off * pool->recip) >> 32);
	struct thread *t;

	if (idx >= pool->nr_blocks || idx * pool->block_size != off)
		bad_free(pool, block, false);
	if (!pool->allocated[idx])
		bad_free(pool, block, true);
	if (list_empty(&pool->waiters.waiters)) {       /* the last block out, nobody waiting */
		struct mempool_free_block *b = block;

		pool->allocated[idx] = 0;
		b->next = (struct mempool_free_block *)pool->free_list;
		b->index = idx;
		pool->free_list = b;
		arch_local_irq_restore(flags);
		return;
	}
	t = list_first_entry(&pool->waiters.waiters, struct thread, node);
	list_del_init(&t->node);
	t->wait_data = block;
	wake_up_thread(t);
	arch_local_irq_restore(flags);
	preempt_check_resched();
}

/* Counted when asked: alloc and free keep no count. */
unsigned int mempool_nr_free(struct mempool *pool)
{
	unsigned int used = 0;

	check_handle(pool, POOL_MAGIC, "memory pool");
	for (unsigned int i = 0; i < pool->nr_blocks; i++)     /* IRQs on: a long pool */
		used += pool->allocated[i];
	return pool->nr_blocks - used;
}
