/*
 * The services on target, with the real tick and real interrupts:
 * timeouts last their ticks, a soft IRQ's give wakes a waiter at once,
 * queue, pool, flags and completion hand over between threads, suspend
 * and resume, software timers fire in the timer thread.
 */
#include <stdio.h>
#include <lokal/thread.h>
#include <lokal/mutex.h>
#include <lokal/completion.h>
#include <lokal/msgqueue.h>
#include <lokal/mempool.h>
#include <lokal/event_flags.h>
#include <lokal/timer.h>
#include <lokal/irq.h>
#include <lokal/app.h>
#include "ktest.h"

static struct semaphore sem;

static void timeouts_last_their_ticks(void)
{
	struct mutex m = MUTEX_INIT(m);
	struct msgqueue q;
	uint32_t ring[4], msg[4];
	uint64_t j0 = jiffies_read();

	sema_init(&sem, 0);
	KT_ASSERT_EQ(down_timeout(&sem, 3), -ETIMEDOUT);
	KT_ASSERT(jiffies_read() - j0 >= 3 && jiffies_read() - j0 <= 4);
	msgq_init(&q, ring, 1 * 16, 16);
	j0 = jiffies_read();
	KT_ASSERT_EQ(msgq_receive(&q, msg, msecs_to_jiffies(50)), -ETIMEDOUT);
	KT_ASSERT(jiffies_read() - j0 >= (uint64_t)msecs_to_jiffies(50));
	KT_ASSERT_EQ(mutex_lock_timeout(&m, 1), 0);
	mutex_unlock(&m);
}

/* ---- a soft IRQ gives; the waiting thread runs before the raise returns ---- */
static struct msgqueue irq_q;
static uint32_t irq_ring[2 * 4];
static struct event_flags ev;
static volatile int got_msg, got_flags;

static void soft_handler(unsigned int irq, void *arg)
{
	uint32_t m[4] = { 0xfeed, 1, 2, 3 };

	(void)arg;
	irq_clear_soft(irq);
	msgq_try_send(&irq_q, m);
	event_flags_set(&ev, 0x10);
}

static void irq_waiter(void *arg)
{
	uint32_t m[4], got;

	(void)arg;
	if (msgq_receive(&irq_q, m, msecs_to_jiffies(100)) == 0 && m[0] == 0xfeed)
		got_msg = 1;
	if (event_flags_wait(&ev, 0x10, EF_ANY | EF_CLEAR, &got, msecs_to_jiffies(100)) == 0)
		got_flags = (int)got;
}

static void irq_gives_wake_waiters(void)
{
	struct thread *t;
	int seen;

	msgq_init(&irq_q, irq_ring, 2 * 16, 16);
	event_flags_init(&ev);
	got_msg = got_flags = 0;
	KT_ASSERT(request_irq(irq_soft_line(), soft_handler, NULL) == 0);
	t = thread_create("w", irq_waiter, NULL, PRIO_MAIN + 1, 0);
	irq_raise_soft(irq_soft_line());
	seen = got_msg;
	thread_join(t);
	free_irq(irq_soft_line());
	KT_ASSERT_EQ(seen, 1);
	KT_ASSERT_EQ(got_flags, 0x10);
	KT_ASSERT_EQ(event_flags_get(&ev), 0);
}

/* ---- producer/consumer through a queue, blocks from a pool ---- */
static struct msgqueue q;
static void *ring_ptrs[4];
static struct mempool pool;
static uint64_t region[64];
static volatile unsigned int consumed, bad;

static void consumer(void *arg)
{
	void *b;

	(void)arg;
	for (unsigned int i = 0; i < 200; i++) {
		if (msgq_receive(&q, &b, MAX_SCHEDULE_TIMEOUT) != 0) {
			bad++;
			continue;
		}
		bad += *(unsigned int *)b != i;
		mempool_free(&pool, b);
		consumed++;
	}
}

static void queue_and_pool_between_threads(void)
{
	struct thread *t;
	unsigned int n;

	msgq_init(&q, ring_ptrs, 4 * sizeof(void *), sizeof(void *));
	n = mempool_init(&pool, region, sizeof(region), 128);
	KT_ASSERT(n >= 3);
	consumed = bad = 0;
	t = thread_create("consumer", consumer, NULL, PRIO_MAIN - 1, 0);
	for (unsigned int i = 0; i < 200; i++) {
		void *b;

		KT_ASSERT_EQ(mempool_alloc(&pool, &b, MAX_SCHEDULE_TIMEOUT), 0);
		*(unsigned int *)b = i;
		KT_ASSERT_EQ(msgq_send(&q, &b, MAX_SCHEDULE_TIMEOUT), 0);
	}
	thread_join(t);
	KT_ASSERT_EQ(consumed, 200);
	KT_ASSERT_EQ(bad, 0);
	KT_ASSERT_EQ(mempool_nr_free(&pool), n);
}

/* ---- completion, suspend/resume ---- */
static DECLARE_COMPLETION(done);
static volatile unsigned long spins;

static void completer(void *arg)
{
	(void)arg;
	sleep_ticks(2);
	complete(&done);
}

static void spinner(void *arg)
{
	(void)arg;
	for (;;)
		spins++;
}

static void completion_and_suspend(void)
{
	struct thread *t = thread_create("compl", completer, NULL, PRIO_MAIN + 1, 0);
	unsigned long before;

	KT_ASSERT(wait_for_completion_timeout(&done, 50) > 0);
	thread_join(t);
	KT_ASSERT_EQ(wait_for_completion_timeout(&done, 2), 0);
	t = thread_create("spin", spinner, NULL, PRIO_MAIN - 1, 0);
	sleep_ticks(2);
	thread_suspend(t);
	before = spins;
	KT_ASSERT(before > 0);
	sleep_ticks(3);
	KT_ASSERT_EQ(spins, before);
	thread_resume(t);
	sleep_ticks(2);
	KT_ASSERT(spins > before);
	thread_suspend(t);              /* parked for good: the image ends */
}

/* ---- software timers ---- */
static volatile unsigned int fires;
static volatile int timer_prio;

static void tick_cb(struct timer_list *t)
{
	(void)t;
	fires++;
	timer_prio = current->prio;
}

static DEFINE_TIMER(periodic, tick_cb);

static void periodic_timer_fires(void)
{
	uint64_t j0 = jiffies_read();

	mod_timer_periodic(&periodic, j0 + 1, 2);
	sleep_ticks(10);        /* ticks 1, 3, 5, 7, 9 */
	del_timer_sync(&periodic);
	KT_ASSERT_EQ(fires, 5);
	KT_ASSERT_EQ(timer_prio, TIMER_THREAD_PRIO);
	sleep_ticks(4);
	KT_ASSERT_EQ(fires, 5);
}

KTEST_MAIN(KTEST(timeouts_last_their_ticks), KTEST(irq_gives_wake_waiters),
	   KTEST(queue_and_pool_between_threads), KTEST(completion_and_suspend),
	   KTEST(periodic_timer_fires))
