/*
 * Software timers on the real scheduler: a one-shot fires once at its
 * tick, a periodic one every period, in expiry order, in the "timers"
 * thread at TIMER_THREAD_PRIO; del_timer stops them and del_timer_sync
 * waits for a callback that is running.
 */
#include <stdio.h>
#include "host_test.h"
#include <lokal/timer.h>
#include <lokal/completion.h>

static char order[32];
static int norder;
static uint64_t fired_at[32];
static int prio_seen;
static const char *thread_seen;

struct tagged {
	struct timer_list timer;
	char tag;
};

static void record(struct timer_list *t)
{
	struct tagged *x = container_of(t, struct tagged, timer);

	fired_at[norder] = jiffies_read();
	order[norder++] = x->tag;
	order[norder] = 0;
	prio_seen = current->prio;
	thread_seen = current->name;
}

static void one_shot_and_periodic(void **state)
{
	struct tagged a = { .tag = 'a' }, b = { .tag = 'b' }, p = { .tag = 'p' };
	uint64_t j0;

	(void)state;
	norder = 0;
	timer_setup(&a.timer, record, 0);
	timer_setup(&b.timer, record, 0);
	timer_setup(&p.timer, record, 0);
	j0 = jiffies_read();
	mod_timer(&b.timer, j0 + 5);
	mod_timer(&a.timer, j0 + 2);
	mod_timer_periodic(&p.timer, j0 + 1, 3);
	assert_true(timer_pending(&a.timer));
	sleep_ticks(8);
	/* p at 1, 4, 7; a at 2; b at 5. */
	assert_string_equal(order, "papbp");
	assert_int_equal(fired_at[0], j0 + 1);
	assert_int_equal(fired_at[1], j0 + 2);
	assert_int_equal(fired_at[3], j0 + 5);
	assert_int_equal(fired_at[4], j0 + 7);
	assert_false(timer_pending(&a.timer));
	assert_true(timer_pending(&p.timer));
	assert_int_equal(prio_seen, TIMER_THREAD_PRIO);
	assert_string_equal(thread_seen, "timers");
	assert_int_equal(del_timer(&p.timer), 1);
	assert_int_equal(del_timer(&p.timer), 0);
	sleep_ticks(5);
	assert_string_equal(order, "papbp");
	/* Re-armed before it fires: only the new time counts. */
	j0 = jiffies_read();
	mod_timer(&a.timer, j0 + 1);
	assert_int_equal(mod_timer(&a.timer, j0 + 3), 1);
	sleep_ticks(4);
	assert_string_equal(order, "papbpa");
	assert_int_equal(fired_at[5], j0 + 3);
}

static struct semaphore in_cb, release;
static volatile int cb_done;

static void blocking_cb(struct timer_list *t)
{
	(void)t;
	up(&in_cb);
	down(&release);
	cb_done = 1;
}

static struct timer_list slow;
static volatile int sync_returned;

static void deleter(void *arg)
{
	(void)arg;
	del_timer_sync(&slow);
	sync_returned = 1;
}

static void del_timer_sync_waits_for_the_callback(void **state)
{
	struct thread *d;

	(void)state;
	sema_init(&in_cb, 0);
	sema_init(&release, 0);
	cb_done = sync_returned = 0;
	timer_setup(&slow, blocking_cb, 0);
	mod_timer_periodic(&slow, jiffies_read() + 1, 1);
	down(&in_cb);                           /* the callback runs, blocked */
	d = host_spawn("deleter", deleter, NULL, HOST_PRIO_MAIN + 1);
	assert_int_equal(sync_returned, 0);     /* waits for the callback */
	assert_false(timer_pending(&slow));     /* but it is disarmed already */
	up(&release);
	thread_join(d);
	assert_int_equal(cb_done, 1);
	assert_int_equal(sync_returned, 1);
	sleep_ticks(3);
	assert_int_equal(in_cb.count, 0);        /* never fired again */
}

static void do_uninitialised(void *arg)
{
	static struct timer_list t;

	(void)arg;
	mod_timer(&t, 5);
}

static void uninitialised_timer_is_reported(void **state)
{
	(void)state;
	EXPECT_PANIC(do_uninitialised, NULL, "mod_timer_periodic(", "thread 'main'",
		     "not an initialised timer");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(one_shot_and_periodic),
		HOST_TEST(del_timer_sync_waits_for_the_callback),
		HOST_TEST(uninitialised_timer_is_reported),
	};

	return host_run_groups("timer_list", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
