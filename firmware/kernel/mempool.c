/*
 * Fixed-block pools (see lokal/mempool.h). Each block has an 8-byte
 * header before it: the owning pool while the block is allocated, the
 * next free block while it is free. The header is what catches a double
 * free; mempool_is_block(), a multiply and a rotate (ARMv5 has no divide),
 * is what catches a foreign or inner pointer, exactly. The fast paths are
 * inline in the header; what they leave, and every report, is here.
 */
#include <lokal/mempool.h>
#include <lokal/wait-internal.h>
#include <lokal/highmem-internal.h>
#include <lokal/timeout.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

unsigned int mempool_init(struct mempool *pool, void *region, size_t size, size_t block_size)
{
	uintptr_t start, end = (uintptr_t)region + size;
	size_t stride;
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
	stride = MEMPOOL_STRIDE(block_size);
	start = ((uintptr_t)region + MEMPOOL_BLOCK_ALIGN - 1) & ~(uintptr_t)(MEMPOOL_BLOCK_ALIGN - 1);
	n = start < end ? (unsigned int)((end - start) / stride) : 0;
	if (n == 0)
		panic("mempool_init(%p, %p, %u, %u) in thread '%s': region too small for one block "
		      "and its %u-byte header", (void *)pool, region, (unsigned)size, (unsigned)block_size,
		      current->name, (unsigned)sizeof(union mempool_header));
	pool->data = (char *)start + sizeof(union mempool_header);
	pool->stride = (unsigned int)stride;
	pool->inverse = MEMPOOL_INVERSE(stride);
	pool->nr_blocks = n;
	pool->free_list = NULL;
	pool->free_tail = mempool_block_at(pool, n - 1);
	for (unsigned int i = n; i-- > 0;) {
		char *b = mempool_block_at(pool, i);

		mempool_header(b)->next = pool->free_list;
		pool->free_list = b;
	}
	pool->carved = n;               /* every block is on the free list already */
	init_waitqueue(&pool->waiters);
	pool->magic = POOL_MAGIC;
	return n;
}

/*
 * IRQs off. A block never handed out yet, from a DEFINE_MEMPOOL pool's
 * storage (mempool_init() puts every block on the free list), owned; or NULL.
 */
static void *carve_block(struct mempool *pool)
{
	unsigned int i = pool->carved;
	char *b;

	if (i >= pool->nr_blocks)
		return NULL;
	pool->carved = i + 1;
	b = mempool_block_at(pool, i);
	mempool_header(b)->owner = pool;
	return b;
}

void *mempool_try_alloc(struct mempool *pool)
{
	unsigned long flags = arch_local_irq_save();
	void *b;

	check_handle(pool, POOL_MAGIC, "memory pool");
	b = pool->free_list;
	if (__builtin_expect(b != NULL, 1))
		mempool_take_first(pool, b);
	else
		b = carve_block(pool);
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

/*
 * Whether block, not owned, reads as free: its header another carved
 * block of the pool, or NULL and block the list's last (a header a write
 * past the end of the block before it zeroed is neither).
 */
static bool reads_as_free(struct mempool *pool, void *block)
{
	void *next = mempool_header(block)->next;

	if (next == NULL)
		return pool->free_list != NULL && block == pool->free_tail;
	return mempool_block_index(pool, next) < pool->carved;     /* carved <= nr_blocks */
}

static void __attribute__((noreturn, noinline, cold)) bad_free(struct mempool *pool, void *block,
							       const char *why)
{
	panic("mempool_free(%p, %p) in thread '%s'%s: %s", (void *)pool, block, current->name,
	      in_irq() ? " (in IRQ)" : "", why);
}

/*
 * What mempool_free()'s fast path left: a pointer that is no allocated
 * block of the pool (reported), a waiter to hand the block to straight
 * away (it stays allocated), or, the free list being empty, a block to
 * put back with nobody waiting. IRQs off on entry.
 */
void __mempool_free_slow(struct mempool *pool, void *block, unsigned long flags)
{
	union mempool_header *h;
	struct thread *t;

	if (pool->magic != POOL_MAGIC)          /* the fast path did not test it */
		bad_handle(pool, "memory pool", "mempool_free");
	if (mempool_block_index(pool, block) >= pool->carved)  /* no block, or never handed out */
		bad_free(pool, block, "not a block of this pool");
	h = mempool_header(block);
	if (h->owner != pool) {
		if (reads_as_free(pool, block))
			bad_free(pool, block, "block already free (double free)");
		bad_free(pool, block, "its header was overwritten (a write past the end of the "
			 "block before it?)");
	}
	if (list_empty(&pool->waiters.waiters)) {       /* the last block out, nobody waiting */
		if (pool->free_list == NULL)
			pool->free_tail = block;
		h->next = pool->free_list;
		pool->free_list = block;
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
	for (unsigned int i = 0; i < pool->carved; i++)       /* IRQs on: a long pool */
		used += mempool_header(mempool_block_at(pool, i))->owner == pool;
	return pool->nr_blocks - used;
}
