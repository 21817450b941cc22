/*
 * Services defined statically (DEFINE_MUTEX, DEFINE_SEMAPHORE,
 * DECLARE_COMPLETION, DEFINE_EVENT_FLAGS, DEFINE_MSGQ, DEFINE_MEMPOOL):
 * usable at boot with no init call, in the same state the init call
 * gives, and checked as strictly (a double free is still reported).
 */
#include <errno.h>
#include <stdio.h>
#include "host_test.h"
#include <lokal/mutex.h>
#include <lokal/completion.h>
#include <lokal/event_flags.h>
#include <lokal/msgqueue.h>
#include <lokal/mempool.h>

static DEFINE_MUTEX(lock);
static DEFINE_SEMAPHORE(sem, 2);
static DECLARE_COMPLETION(done);
static DEFINE_EVENT_FLAGS(ev);
DEFINE_MSGQ(words, 16, 3);
DEFINE_MSGQ(odd, 5, 4);         /* not whole 16-byte chunks: copied bytewise */
DEFINE_MEMPOOL(pool, 24, 5);
DEFINE_MEMPOOL(tiny, 1, 2);     /* rounded up to two words */

static void try_lock(void *arg)
{
	*(bool *)arg = mutex_trylock(&lock);
	if (*(bool *)arg)
		mutex_unlock(&lock);
}

static void locks_and_flags_work_without_init(void **state)
{
	bool other = true;
	uint32_t got = 0;
	struct thread *t;

	(void)state;
	mutex_lock(&lock);
	t = host_spawn("other", try_lock, &other, HOST_PRIO_MAIN + 1);
	thread_join(t);
	assert_false(other);                    /* held by main */
	mutex_unlock(&lock);
	assert_true(mutex_trylock(&lock));
	mutex_unlock(&lock);

	assert_int_equal(down_timeout(&sem, 0), 0);
	assert_int_equal(down_timeout(&sem, 0), 0);
	assert_int_equal(down_timeout(&sem, 0), -EAGAIN);
	up(&sem);
	up(&sem);

	assert_false(try_wait_for_completion(&done));
	complete(&done);
	assert_true(try_wait_for_completion(&done));

	assert_int_equal(event_flags_wait(&ev, 1u, EF_ANY, &got, 0), -EAGAIN);
	event_flags_set(&ev, 3u);
	assert_int_equal(event_flags_wait(&ev, 3u, EF_ALL | EF_CLEAR, &got, 0), 0);
	assert_int_equal(got, 3u);
	assert_int_equal(event_flags_wait(&ev, 1u, EF_ANY, &got, 0), -EAGAIN);
}

/* The static queue's fields equal what msgq_init() sets over the same ring. */
static void same_as_init(struct msgqueue *s, size_t size, unsigned int cap)
{
	struct msgqueue q;

	assert_int_equal(msgq_init(&q, s->buf, size * cap, size), cap);
	assert_int_equal(s->magic, q.magic);
	assert_int_equal(s->msg_size, q.msg_size);
	assert_int_equal(s->chunks, q.chunks);
	assert_int_equal(s->capacity, q.capacity);
	assert_int_equal(s->count, 0);
	assert_ptr_equal(s->end, q.end);
	assert_ptr_equal(s->head, s->buf);
	assert_ptr_equal(s->tail, s->buf);
	assert_int_equal((uintptr_t)s->buf % 8, 0);
	assert_true(list_empty(&s->receivers.waiters) && list_empty(&s->senders.waiters));
}

static void queues_work_without_init(void **state)
{
	uint32_t in[4] = { 1, 2, 3, 4 }, out[4];
	char b[5];

	(void)state;
	same_as_init(&words, 16, 3);
	same_as_init(&odd, 5, 4);
	for (uint32_t i = 0; i < 3; i++) {
		in[0] = i;
		assert_int_equal(msgq_try_send(&words, in), 0);
	}
	assert_int_equal(msgq_try_send(&words, in), -EAGAIN);
	for (uint32_t i = 0; i < 3; i++) {
		assert_int_equal(msgq_receive(&words, out, 0), 0);
		assert_int_equal(out[0], i);
		assert_int_equal(out[3], 4);
	}
	assert_int_equal(msgq_try_receive(&words, out), -EAGAIN);
	/* Around the odd ring twice. */
	for (int i = 0; i < 10; i++) {
		memset(b, 'a' + i, sizeof(b));
		assert_int_equal(msgq_try_send(&odd, b), 0);
		memset(b, 0, sizeof(b));
		assert_int_equal(msgq_try_receive(&odd, b), 0);
		assert_int_equal(b[0], 'a' + i);
		assert_int_equal(b[4], 'a' + i);
	}
}

struct waiter {
	void *got;
	int result;
};

static void waiter_fn(void *arg)
{
	struct waiter *w = arg;

	w->result = mempool_alloc(&pool, &w->got, MAX_SCHEDULE_TIMEOUT);
}

static void *bad_ptr;
static char ptr_hex[32];

static void do_free(void *arg)
{
	(void)arg;
	mempool_free(&pool, bad_ptr);
}

static void pool_works_without_init(void **state)
{
	void *b[6];
	struct waiter w = { NULL, 1 };
	struct thread *t;
	size_t bs = MEMPOOL_STRIDE(24) - 8;

	(void)state;
	assert_int_equal(MEMPOOL_STRIDE(24), 40);       /* 24 and the header: 8 * 5 */
	assert_int_equal(MEMPOOL_STRIDE(1), 24);        /* 8 and the header, 16 = 8 * 2: padded to 8 * 3 */
	assert_int_equal(MEMPOOL_STRIDE(128), 136);     /* 8 * 17 */
	assert_int_equal(pool.stride, 40);
	assert_int_equal(pool.inverse * 5, 1);          /* the constant initializer's inverse, mod 2^N */
	assert_int_equal(mempool_nr_free(&pool), 5);
	/* Every block once, from the storage, then none. */
	for (int i = 0; i < 5; i++) {
		b[i] = i % 2 ? mempool_try_alloc(&pool) : NULL;
		if (!b[i])
			assert_int_equal(mempool_alloc(&pool, &b[i], 0), 0);
		assert_non_null(b[i]);
		assert_int_equal((uintptr_t)b[i] % 8, 0);
		memset(b[i], 0x5a, bs);         /* must not touch a header */
		for (int k = 0; k < i; k++)
			assert_true((char *)b[k] + bs <= (char *)b[i] || (char *)b[i] + bs <= (char *)b[k]);
	}
	assert_null(mempool_try_alloc(&pool));
	assert_int_equal(mempool_alloc(&pool, &b[5], 0), -EAGAIN);
	assert_int_equal(mempool_alloc(&pool, &b[5], 1), -ETIMEDOUT);
	assert_int_equal(mempool_nr_free(&pool), 0);

	/* A waiter gets the next block freed, handed over. */
	t = host_spawn("waiter", waiter_fn, &w, HOST_PRIO_MAIN + 1);
	assert_int_equal(w.result, 1);          /* waiting */
	mempool_free(&pool, b[2]);
	thread_join(t);
	assert_int_equal(w.result, 0);
	assert_ptr_equal(w.got, b[2]);

	/* Freed blocks come back; a block twice, or not a block, is reported. */
	mempool_free(&pool, b[0]);
	bad_ptr = b[0];
	snprintf(ptr_hex, sizeof(ptr_hex), "%p", bad_ptr);
	EXPECT_PANIC(do_free, NULL, ptr_hex, "thread 'main'", "double free");
	bad_ptr = (char *)b[1] + 8;
	snprintf(ptr_hex, sizeof(ptr_hex), "%p", bad_ptr);
	EXPECT_PANIC(do_free, NULL, ptr_hex, "thread 'main'", "not a block of this pool");
	assert_ptr_equal(mempool_try_alloc(&pool), b[0]);
	for (int i = 0; i < 5; i++)
		mempool_free(&pool, i == 2 ? w.got : b[i]);
	assert_int_equal(mempool_nr_free(&pool), 5);

	/* The smallest block size: two words each, both blocks distinct. */
	b[0] = mempool_try_alloc(&tiny);
	b[1] = mempool_try_alloc(&tiny);
	assert_non_null(b[0]);
	assert_non_null(b[1]);
	assert_true(b[0] != b[1]);
	assert_null(mempool_try_alloc(&tiny));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(locks_and_flags_work_without_init),
		HOST_TEST(queues_work_without_init),
		HOST_TEST(pool_works_without_init),
	};

	return host_run_groups("static_init", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
