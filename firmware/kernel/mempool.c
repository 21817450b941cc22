/*
 * Fixed-block pools (see lokal/mempool.h). A free block links to the next
 * through its first word; the allocated bitmap is what catches a double
 * free or a foreign pointer, exactly: a block's index comes from a
 * multiply (ARMv5 has no divide) and must map back to the same address.
 */
#include <lokal/mempool.h>
#include <lokal/timeout.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

#define BLOCK_ALIGN 8u

unsigned int mempool_init(struct mempool *pool, void *region, size_t size, size_t block_size)
{
	uintptr_t start = (uintptr_t)region, end = start + size, blocks;
	unsigned int n, bitmap_words;

	if (!pool || !region || block_size == 0 || block_size > size)
		panic("mempool_init(%p, %p, %u, %u) in thread '%s': %s", (void *)pool, region,
		      (unsigned)size, (unsigned)block_size, current->name,
		      !pool ? "NULL pool" : !region ? "NULL region" :
		      block_size == 0 ? "block size 0" : "region smaller than a block");
	block_size = (block_size + BLOCK_ALIGN - 1) & ~(size_t)(BLOCK_ALIGN - 1);
	start = (start + 3) & ~(uintptr_t)3;
	/* As many blocks as fit beside their bitmap. */
	n = (unsigned int)(size / block_size);
	for (;;) {
		bitmap_words = (n + 31) / 32;
		blocks = (start + bitmap_words * 4 + BLOCK_ALIGN - 1) & ~(uintptr_t)(BLOCK_ALIGN - 1);
		if (n == 0 || blocks + (uintptr_t)n * block_size <= end)
			break;
		n--;
	}
	if (n == 0)
		panic("mempool_init(%p, %p, %u, %u) in thread '%s': region too small for one block",
		      (void *)pool, region, (unsigned)size, (unsigned)block_size, current->name);
	pool->allocated = (uint32_t *)start;
	for (unsigned int i = 0; i < bitmap_words; i++)
		pool->allocated[i] = 0;
	pool->blocks = (char *)blocks;
	pool->end = pool->blocks + (size_t)n * block_size;
	pool->block_size = (unsigned int)block_size;
	pool->recip = (uint32_t)(((1ull << 32) + block_size - 1) / block_size);
	pool->nr_blocks = pool->nr_free = n;
	pool->free_list = NULL;
	for (unsigned int i = n; i-- > 0;) {
		void **b = (void **)(pool->blocks + (size_t)i * block_size);

		*b = pool->free_list;
		pool->free_list = b;
	}
	init_waitqueue(&pool->waiters);
	pool->magic = POOL_MAGIC;
	return n;
}

/* The block's index, or -1 if p is not the start of one of pool's blocks. */
static inline int block_index(const struct mempool *pool, const void *p)
{
	uint32_t off = (uint32_t)((uintptr_t)p - (uintptr_t)pool->blocks);
	uint32_t idx = (uint32_t)(((uint64_t)off * pool->recip) >> 32);

	if (__builtin_expect(idx >= pool->nr_blocks || idx * pool->block_size != off, 0))
		return -1;
	return (int)idx;
}

/* b comes off the free list: a block of the pool, its index needs no check. */
static inline void mark(struct mempool *pool, const void *b)
{
	uint32_t off = (uint32_t)((uintptr_t)b - (uintptr_t)pool->blocks);
	uint32_t i = (uint32_t)(((uint64_t)off * pool->recip) >> 32);

	pool->allocated[i >> 5] |= 1u << (i & 31);
}

/* IRQs off. The first free block, taken and marked, or NULL. */
static inline void *take_block(struct mempool *pool)
{
	void **b = pool->free_list;

	if (__builtin_expect(b != NULL, 1)) {
		pool->free_list = *b;
		pool->nr_free--;
		mark(pool, b);
	}
	return b;
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

int mempool_alloc(struct mempool *pool, void **block, long timeout)
{
	unsigned long flags;
	void *b;
	int ret;

	if (timeout)
		might_sleep();
	flags = arch_local_irq_save();
	check_handle(pool, POOL_MAGIC, "memory pool");
	if (__builtin_expect(!block, 0))
		panic("mempool_alloc(%p) in thread '%s': NULL result pointer", (void *)pool,
		      current->name);
	b = take_block(pool);
	if (__builtin_expect(b != NULL, 1)) {
		arch_local_irq_restore(flags);
		*block = b;
		return 0;
	}
	if (timeout == 0) {
		ret = -EAGAIN;
	} else {
		current->wait_data = NULL;
		ret = sleep_on_deadline(&pool->waiters, timeout_deadline(timeout), true);
		b = ret ? NULL : current->wait_data;    /* handed over by mempool_free() */
	}
	arch_local_irq_restore(flags);
	*block = b;
	return ret;
}

static void __attribute__((noreturn, noinline)) bad_free(struct mempool *pool, void *block, bool twice)
{
	panic("mempool_free(%p, %p) in thread '%s'%s: %s", (void *)pool, block, current->name,
	      in_irq() ? " (in IRQ)" : "",
	      twice ? "block already free (double free)" : "not a block of this pool");
}

void mempool_free(struct mempool *pool, void *block)
{
	unsigned long flags = arch_local_irq_save();
	struct list_head *first;
	uint32_t *word, bit;
	int i;

	check_handle(pool, POOL_MAGIC, "memory pool");
	i = block_index(pool, block);
	if (__builtin_expect(i < 0, 0))
		bad_free(pool, block, false);
	word = &pool->allocated[i >> 5];
	bit = 1u << (i & 31);
	if (__builtin_expect(!(*word & bit), 0))
		bad_free(pool, block, true);
	first = pool->waiters.waiters.next;
	if (__builtin_expect(first != &pool->waiters.waiters, 0)) {
		/* Straight to the most urgent waiter: the block stays allocated. */
		struct thread *t = list_entry(first, struct thread, node);

		pool->waiters.waiters.next = first->next;
		first->next->prev = &pool->waiters.waiters;
		t->wait_data = block;
		wake_up_thread(t);
		arch_local_irq_restore(flags);
		preempt_check_resched();
		return;
	}
	*word &= ~bit;
	*(void **)block = pool->free_list;
	pool->free_list = block;
	pool->nr_free++;
	arch_local_irq_restore(flags);
}

unsigned int mempool_nr_free(struct mempool *pool)
{
	check_handle(pool, POOL_MAGIC, "memory pool");
	return pool->nr_free;
}
