/*
 * The Thread-Metric style porting layer over Lokal's public services
 * (tm_port.h). Every function is out of line on purpose: the suite
 * measures an application's ordinary calls, not inlined fast paths.
 */
#include <lokal/thread.h>
#include <lokal/mutex.h>
#include <lokal/msgqueue.h>
#include <lokal/mempool.h>
#include <lokal/app.h>
#include "tm_port.h"

#define TM_MSG_BYTES    16
#define TM_QUEUE_AREA   200
#define TM_POOL_AREA    2048
#define TM_BLOCK_BYTES  128
#define TM_STACK        2048

static struct thread *threads[TM_MAX_THREADS];
static void (*entries[TM_MAX_THREADS])(void);
static struct semaphore semaphores[TM_MAX_OBJECTS];
static struct msgqueue queues[TM_MAX_OBJECTS];
static uint32_t queue_area[TM_MAX_OBJECTS][TM_QUEUE_AREA / 4];
static struct mempool pools[TM_MAX_OBJECTS];
static uint64_t pool_area[TM_MAX_OBJECTS][TM_POOL_AREA / 8];
/*
 * Queues and pools are reached through a table of handles, as a port over
 * an API of pointers (FreeRTOS's, Lokal's) keeps them: one load, where
 * indexing the objects themselves multiplies by their size (52, 40 bytes).
 */
static struct msgqueue *queue_handles[TM_MAX_OBJECTS];
static struct mempool *pool_handles[TM_MAX_OBJECTS];

#define TM_NOINLINE __attribute__((noinline))

/* The suite's entries take nothing; Lokal's take one argument: the id. */
static void tm_entry(void *arg)
{
	entries[(intptr_t)arg]();
}

TM_NOINLINE int tm_thread_create(int id, int prio, void (*entry)(void))
{
	struct thread *t;

	/* The suite's 1 (most urgent) .. 31 onto Lokal's, all below main. */
	if (id < 0 || id >= TM_MAX_THREADS || prio < 1 || prio > PRIO_MAIN - 3)
		return TM_ERROR;
	entries[id] = entry;
	t = thread_create_suspended("tm", tm_entry, (void *)(intptr_t)id, PRIO_MAIN - 2 - prio, TM_STACK);
	if (!t)
		return TM_ERROR;
	thread_set_timeslice(t, 0);
	threads[id] = t;
	return TM_SUCCESS;
}

struct thread *tm_thread(int id)
{
	return threads[id];
}

TM_NOINLINE int tm_thread_resume(int id)
{
	return thread_resume(threads[id]) ? TM_SUCCESS : TM_ERROR;
}

TM_NOINLINE int tm_thread_suspend(int id)
{
	thread_suspend(threads[id]);
	return TM_SUCCESS;
}

TM_NOINLINE void tm_thread_relinquish(void)
{
	thread_yield();
}

TM_NOINLINE int tm_semaphore_create(int id)
{
	sema_init(&semaphores[id], 1);
	return TM_SUCCESS;
}

TM_NOINLINE int tm_semaphore_get(int id)
{
	/* down_trylock()'s 0 (taken) and 1 (none left) are the suite's codes. */
	_Static_assert(TM_SUCCESS == 0 && TM_ERROR == 1, "down_trylock()'s results");
	return down_trylock(&semaphores[id]);
}

TM_NOINLINE int tm_semaphore_put(int id)
{
	up(&semaphores[id]);
	return TM_SUCCESS;
}

TM_NOINLINE int tm_queue_create(int id)
{
	msgq_init(&queues[id], queue_area[id], TM_QUEUE_AREA, TM_MSG_BYTES);
	queue_handles[id] = &queues[id];
	return TM_SUCCESS;
}

TM_NOINLINE int tm_queue_send(int id, unsigned long *message)
{
	return msgq_send(queue_handles[id], message, 0) == 0 ? TM_SUCCESS : TM_ERROR;
}

TM_NOINLINE int tm_queue_receive(int id, unsigned long *message)
{
	return msgq_receive(queue_handles[id], message, 0) == 0 ? TM_SUCCESS : TM_ERROR;
}

TM_NOINLINE int tm_memory_pool_create(int id)
{
	if (!mempool_init(&pools[id], pool_area[id], sizeof(pool_area[id]), TM_BLOCK_BYTES))
		return TM_ERROR;
	pool_handles[id] = &pools[id];
	return TM_SUCCESS;
}

TM_NOINLINE int tm_memory_pool_allocate(int id, unsigned char **block)
{
	return mempool_alloc(pool_handles[id], (void **)block, 0) == 0 ? TM_SUCCESS : TM_ERROR;
}

TM_NOINLINE int tm_memory_pool_deallocate(int id, unsigned char *block)
{
	mempool_free(pool_handles[id], block);
	return TM_SUCCESS;
}
