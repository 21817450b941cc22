/*
 * Timeouts on every blocking call, on the real scheduler: each times out
 * with its distinct result, succeeds when given in time, and a give that
 * races with the time-out is settled one way only. The race is made
 * deliberately: the waiter (more urgent than main) blocks with a 2-tick
 * timeout; main, with preemption off so the waiter cannot run in
 * between, lands the deadline's tick and the give in either order, from
 * a thread or from an "IRQ". Then the waiter's result and the object's
 * state must agree: given and consumed, or timed out and still there.
 */
#include <stdio.h>
#include "host_test.h"
#include <lokal/completion.h>
#include <lokal/msgqueue.h>
#include <lokal/mempool.h>
#include <lokal/event_flags.h>
#include <lokal/timeout.h>
#include <asm/irqflags.h>
#include <lokal/platform.h>

#define PRIO_W  (HOST_PRIO_MAIN + 1)

static struct semaphore sem;
static struct mutex mtx;
static struct completion done;
static struct msgqueue q;
static uint32_t q_ring[4 * 4];
static struct mempool pool;
static uint64_t pool_region[64];
static void *pool_blocks[16];
static unsigned int pool_nr;
static struct event_flags ev;
static struct wait_queue wq;
static volatile int cond;

static volatile int w_result;
static volatile long w_long;
static uint32_t w_msg[4];
static void *w_block;
static uint32_t w_got;

/* One service's side of the race. */
struct svc {
	const char *name;
	void (*init)(void);
	int (*wait)(long timeout);      /* in the waiter thread: 0 or -ETIMEDOUT */
	void (*give)(void);             /* IRQ-safe */
	/* result 0: the give was consumed by the waiter; else it must still be there */
	void (*check)(int result);
};

/* ---- semaphore ---- */
static void sem_init(void) { sema_init(&sem, 0); }
static int sem_wait(long t) { return down_timeout(&sem, t); }
static void sem_give(void) { up(&sem); }
static void sem_check(int r) { assert_int_equal(sem.count, r ? 1 : 0); }

/* ---- completion ---- */
static void compl_init(void) { init_completion(&done); }
static int compl_wait(long t)
{
	w_long = wait_for_completion_timeout(&done, t);
	return w_long ? 0 : -ETIMEDOUT;
}
static void compl_give(void) { complete(&done); }
static void compl_check(int r) { assert_int_equal(done.done, r ? 1 : 0); }

/* ---- message queue ---- */
static void q_init(void) { msgq_init(&q, q_ring, 4 * 16, 16); memset(w_msg, 0, sizeof(w_msg)); }
static int q_wait(long t) { return msgq_receive(&q, w_msg, t); }
static void q_give(void)
{
	static const uint32_t m[4] = { 1, 2, 3, 4 };

	assert_int_equal(msgq_try_send(&q, m), 0);
}
static void q_check(int r)
{
	uint32_t m[4];

	assert_int_equal(msgq_count(&q), r ? 1 : 0);
	if (r) {
		assert_int_equal(msgq_try_receive(&q, m), 0);
		assert_int_equal(m[3], 4);
	} else {
		assert_int_equal(w_msg[0], 1);
		assert_int_equal(w_msg[3], 4);
	}
}

/* ---- memory pool: all blocks taken, the give frees one ---- */
static void pool_init(void)
{
	pool_nr = mempool_init(&pool, pool_region, sizeof(pool_region), 64);
	for (unsigned int i = 0; i < pool_nr; i++)
		pool_blocks[i] = mempool_try_alloc(&pool);
	assert_null(mempool_try_alloc(&pool));
	w_block = NULL;
}
static int pool_wait(long t) { return mempool_alloc(&pool, &w_block, t); }
static void pool_give(void) { mempool_free(&pool, pool_blocks[0]); }
static void pool_check(int r)
{
	assert_int_equal(mempool_nr_free(&pool), r ? 1 : 0);
	if (r) {
		assert_null(w_block);
		assert_ptr_equal(mempool_try_alloc(&pool), pool_blocks[0]);
	} else {
		assert_ptr_equal(w_block, pool_blocks[0]);
	}
	for (unsigned int i = 0; i < pool_nr; i++)
		mempool_free(&pool, pool_blocks[i]);
	assert_int_equal(mempool_nr_free(&pool), pool_nr);
}

/* ---- event flags, all of 0x3 with clear ---- */
static void ev_init(void) { event_flags_init(&ev); event_flags_set(&ev, 0x1); w_got = 0; }
static int ev_wait(long t) { return event_flags_wait(&ev, 0x3, EF_ALL | EF_CLEAR, &w_got, t); }
static void ev_give(void) { event_flags_set(&ev, 0x2); }
static void ev_check(int r)
{
	assert_int_equal(event_flags_get(&ev), r ? 0x3 : 0);
	assert_int_equal(w_got, r ? 0 : 0x3);
}

/* ---- wait_event_timeout on a plain wait queue ---- */
static void we_init(void) { init_waitqueue(&wq); cond = 0; }
static int we_wait(long t)
{
	w_long = wait_event_timeout(wq, cond != 0, t);
	return w_long ? 0 : -ETIMEDOUT;
}
static void we_give(void) { cond = 1; wake_up(&wq); }
static void we_check(int r) { (void)r; assert_int_equal(cond, 1); }

static const struct svc svcs[] = {
	{ "semaphore", sem_init, sem_wait, sem_give, sem_check },
	{ "completion", compl_init, compl_wait, compl_give, compl_check },
	{ "msgqueue", q_init, q_wait, q_give, q_check },
	{ "mempool", pool_init, pool_wait, pool_give, pool_check },
	{ "event_flags", ev_init, ev_wait, ev_give, ev_check },
	{ "wait_event", we_init, we_wait, we_give, we_check },
};
#define NR_SVCS (sizeof(svcs) / sizeof(svcs[0]))

static const struct svc *cur;

static void waiter(void *arg)
{
	w_result = cur->wait((long)(intptr_t)arg);
}

static void give_in_irq(void)
{
	unsigned long flags = arch_local_irq_save();

	irq_enter();
	cur->give();
	irq_exit();
	arch_local_irq_restore(flags);
}

/* Every service times out with its result, and the wait lasted its ticks. */
static void each_wait_times_out(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < NR_SVCS; i++) {
		uint64_t j0;
		struct thread *t;

		cur = &svcs[i];
		cur->init();
		w_result = 1;
		j0 = jiffies_read();
		t = host_spawn("w", waiter, (void *)3, HOST_PRIO_MAIN - 1);
		thread_join(t);         /* main blocks: the idle loop ticks */
		if (w_result != -ETIMEDOUT)
			fail_msg("%s: result %d", cur->name, w_result);
		assert_int_equal(jiffies_read() - j0, 3);
	}
}

/* Given in time: success, and the give is consumed. */
static void each_wait_succeeds_when_given(void **state)
{
	(void)state;
	for (unsigned int i = 0; i < NR_SVCS; i++) {
		struct thread *t;

		cur = &svcs[i];
		cur->init();
		w_result = 1;
		t = host_spawn("w", waiter, (void *)MAX_SCHEDULE_TIMEOUT, PRIO_W);
		host_tick();
		cur->give();
		thread_join(t);
		if (w_result != 0)
			fail_msg("%s: result %d", cur->name, w_result);
		cur->check(0);
	}
}

/* Timeout 0: no wait at all, -EAGAIN where the call would block. */
static void zero_timeout_does_not_block(void **state)
{
	void *b;

	(void)state;
	sema_init(&sem, 0);
	assert_int_equal(down_timeout(&sem, 0), -EAGAIN);
	up(&sem);
	assert_int_equal(down_timeout(&sem, 0), 0);
	msgq_init(&q, q_ring, 1 * 16, 16);
	assert_int_equal(msgq_receive(&q, w_msg, 0), -EAGAIN);
	assert_int_equal(msgq_send(&q, w_msg, 0), 0);
	assert_int_equal(msgq_send(&q, w_msg, 0), -EAGAIN);
	pool_init();
	assert_int_equal(mempool_alloc(&pool, &b, 0), -EAGAIN);
	for (unsigned int i = 0; i < pool_nr; i++)
		mempool_free(&pool, pool_blocks[i]);
	event_flags_init(&ev);
	assert_int_equal(event_flags_wait(&ev, 1, EF_ANY, NULL, 0), -EAGAIN);
	init_completion(&done);
	assert_int_equal(wait_for_completion_timeout(&done, 0), 0);
	mutex_init(&mtx);
	assert_int_equal(mutex_lock_timeout(&mtx, 0), 0);
	mutex_unlock(&mtx);
}

/*
 * The race, in both orders and with the give from a thread and from an
 * IRQ: the waiter blocks until tick j0+2; main lands tick j0+1, then the
 * deadline's tick and the give in the order chosen, before the waiter can
 * run.
 */
static void race(bool give_first, bool from_irq)
{
	for (unsigned int i = 0; i < NR_SVCS; i++) {
		struct thread *t;
		int expect = give_first ? 0 : -ETIMEDOUT;

		cur = &svcs[i];
		cur->init();
		w_result = 1;
		t = host_spawn("w", waiter, (void *)2, PRIO_W);        /* runs and blocks */
		preempt_disable();
		host_tick();
		if (give_first)
			from_irq ? give_in_irq() : cur->give();
		host_tick();                                    /* the deadline */
		if (!give_first)
			from_irq ? give_in_irq() : cur->give();
		assert_int_equal(w_result, 1);                  /* it has not run yet */
		preempt_enable();
		thread_join(t);
		/* wait_event re-tests its condition: true after the time-out too (as Linux). */
		if (cur->wait == we_wait)
			expect = 0;
		/* A complete() that came before the woken waiter ran is taken (as Linux). */
		if (cur->wait == compl_wait)
			expect = 0;
		if (w_result != expect)
			fail_msg("%s (%s first, %s): result %d, expected %d", cur->name,
				 give_first ? "give" : "tick", from_irq ? "IRQ" : "thread",
				 w_result, expect);
		cur->check(w_result);
	}
}

static void race_give_then_deadline(void **state) { (void)state; race(true, false); }
static void race_deadline_then_give(void **state) { (void)state; race(false, false); }
static void race_irq_give_then_deadline(void **state) { (void)state; race(true, true); }
static void race_deadline_then_irq_give(void **state) { (void)state; race(false, true); }

/* ---- mutex: hand-over against time-out, and the lent priority taken back ---- */

static void mutex_waiter(void *arg)
{
	w_result = mutex_lock_timeout(&mtx, (long)(intptr_t)arg);
	if (w_result == 0)
		mutex_unlock(&mtx);
}

static void mutex_race(bool unlock_first)
{
	struct thread *t;

	mutex_init(&mtx);
	mutex_lock(&mtx);
	w_result = 1;
	t = host_spawn("w", mutex_waiter, (void *)2, PRIO_W);
	assert_int_equal(current->prio, PRIO_W);        /* lent */
	preempt_disable();
	host_tick();
	if (unlock_first)
		mutex_unlock(&mtx);
	host_tick();
	if (!unlock_first)
		mutex_unlock(&mtx);
	preempt_enable();
	thread_join(t);
	assert_int_equal(w_result, unlock_first ? 0 : -ETIMEDOUT);
	assert_null(mtx.owner);
	assert_int_equal(current->prio, HOST_PRIO_MAIN);
}

static void mutex_race_unlock_then_deadline(void **state) { (void)state; mutex_race(true); }
static void mutex_race_deadline_then_unlock(void **state) { (void)state; mutex_race(false); }

/* A waiter that gives up takes back the priority it lent, at once. */
static void mutex_timeout_unboosts_owner(void **state)
{
	struct thread *t;

	(void)state;
	mutex_init(&mtx);
	mutex_lock(&mtx);
	w_result = 1;
	t = host_spawn("w", mutex_waiter, (void *)2, PRIO_W + 2);
	assert_int_equal(current->prio, PRIO_W + 2);
	host_tick();
	assert_int_equal(current->prio, PRIO_W + 2);
	host_tick();                    /* w times out, runs, gives back */
	assert_int_equal(w_result, -ETIMEDOUT);
	assert_int_equal(current->prio, HOST_PRIO_MAIN);
	assert_ptr_equal(mtx.owner, current);
	mutex_unlock(&mtx);
	thread_join(t);
}

/* A negative timeout is a bug, reported with the thread. */
static void do_negative(void *arg)
{
	(void)arg;
	sema_init(&sem, 0);
	down_timeout(&sem, -5);
}

static void negative_timeout_is_reported(void **state)
{
	(void)state;
	EXPECT_PANIC(do_negative, NULL, "negative timeout -5", "thread 'main'");
}

/*
 * More sleepers due at one tick than the tick may look at: the tick wakes
 * at most TICK_WALK_BUDGET - 1 of them, the rest wake at the next ticks
 * (a budget's worth each), and they run in the order they went to sleep.
 */
#define NR_SLEEPERS     (3 * TICK_WALK_BUDGET)
static volatile unsigned int woken[NR_SLEEPERS], nr_woken;

static void sleeper(void *arg)
{
	sleep_ticks(2);
	woken[nr_woken++] = (unsigned int)(uintptr_t)arg;
}

static unsigned int sleepers_ready(struct thread *const *t)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < NR_SLEEPERS; i++)
		n += t[i]->state != THREAD_SLEEPING;
	return n;
}

static void many_sleepers_due_at_one_tick_wake_in_bounded_steps(void **state)
{
	static struct thread *t[NR_SLEEPERS];
	unsigned int ticks = 0, ready = 0, now;

	(void)state;
	nr_woken = 0;
	for (unsigned int i = 0; i < NR_SLEEPERS; i++)
		t[i] = host_spawn("sleeper", sleeper, (void *)(uintptr_t)i, PRIO_W);  /* runs and sleeps */
	assert_int_equal(sleepers_ready(t), 0);
	preempt_disable();                      /* so the woken ones wait to be counted */
	host_tick();
	assert_int_equal(sleepers_ready(t), 0); /* due at the next tick */
	while (ready < NR_SLEEPERS && ticks < NR_SLEEPERS) {
		host_tick();
		ticks++;
		now = sleepers_ready(t);
		if (ticks == 1)
			assert_true(now >= 1 && now <= TICK_WALK_BUDGET - 1);
		else
			assert_true(now - ready <= TICK_WALK_BUDGET - 1);
		ready = now;
	}
	assert_int_equal(ready, NR_SLEEPERS);
	/* A slot and its threads per budget: every tick after the first wakes a whole budget's worth less one. */
	assert_true(ticks <= 1 + (NR_SLEEPERS + TICK_WALK_BUDGET - 2) / (TICK_WALK_BUDGET - 1));
	preempt_enable();
	for (unsigned int i = 0; i < NR_SLEEPERS; i++)
		thread_join(t[i]);
	assert_int_equal(nr_woken, NR_SLEEPERS);
	for (unsigned int i = 0; i < NR_SLEEPERS; i++)
		assert_int_equal(woken[i], i);
}

/* sleep_ms and msecs_to_jiffies round up. */
static void msecs_round_up(void **state)
{
	(void)state;
	assert_int_equal(msecs_to_jiffies(0), 0);
	assert_int_equal(msecs_to_jiffies(1), (CONFIG_HZ + 999) / 1000);
	assert_int_equal(msecs_to_jiffies(1000), CONFIG_HZ);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(each_wait_times_out),
		HOST_TEST(each_wait_succeeds_when_given),
		HOST_TEST(zero_timeout_does_not_block),
		HOST_TEST(race_give_then_deadline),
		HOST_TEST(race_deadline_then_give),
		HOST_TEST(race_irq_give_then_deadline),
		HOST_TEST(race_deadline_then_irq_give),
		HOST_TEST(mutex_race_unlock_then_deadline),
		HOST_TEST(mutex_race_deadline_then_unlock),
		HOST_TEST(mutex_timeout_unboosts_owner),
		HOST_TEST(negative_timeout_is_reported),
		HOST_TEST(msecs_round_up),
		HOST_TEST(many_sleepers_due_at_one_tick_wake_in_bounded_steps),
	};

	return host_run_groups("timeouts", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
