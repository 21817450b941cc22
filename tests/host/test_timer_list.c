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
#include <lokal/sched-internal.h>
#include <lokal/platform.h>
#include <asm/irqflags.h>

/* ---- the timer thread is started once, whatever the interleaving ---- */
/*
 * A calls timer_setup() first, so it starts the timer thread. At every
 * point in that call where interrupts come back on, an interrupt wakes
 * one more thread of a pool (all more urgent than A), which preempts A and
 * calls timer_setup() for a timer of its own. Whatever point that is, one
 * "timers" thread must exist in the end, and every timer must fire in it.
 * This has to be the first test: nothing may have started the thread yet.
 */
#define NR_RIVALS 8

static struct semaphore rivals_go;
static struct timer_list rival_timer[NR_RIVALS + 1];
static struct thread *starter;
static volatile bool starting;
static unsigned int woken_rivals, fired;
static const char *fired_in[NR_RIVALS + 1];

static void count_fired(struct timer_list *t)
{
	(void)t;
	fired_in[fired++] = current->name;
}

static void rival(void *arg)
{
	down(&rivals_go);
	timer_setup(&rival_timer[(uintptr_t)arg], count_fired, 0);
}

static void irq_wakes_a_rival(enum sim_irq_point where, unsigned long vaddr)
{
	unsigned long flags;

	(void)vaddr;
	if (where != SIM_IRQ_AT_UNMASK || !starting || current != starter ||
	    woken_rivals == NR_RIVALS)
		return;
	woken_rivals++;
	flags = arch_local_irq_save();
	irq_enter();
	up(&rivals_go);
	irq_exit();                     /* the rival outranks the starter: it runs now */
	arch_local_irq_restore(flags);
}

static void first_starter(void *arg)
{
	(void)arg;
	starter = current;
	starting = true;
	timer_setup(&rival_timer[NR_RIVALS], count_fired, 0);
	starting = false;
}

static unsigned int timer_threads(void)
{
	unsigned long flags = arch_local_irq_save();
	struct list_head *pos;
	unsigned int n = 0;

	list_for_each(pos, &all_threads)
		n += strcmp(list_entry(pos, struct thread, all)->name, "timers") == 0;
	arch_local_irq_restore(flags);
	return n;
}

static void one_timer_thread_whatever_the_interleaving(void **state)
{
	struct thread *rivals[NR_RIVALS];
	uint64_t j0;

	(void)state;
	assert_int_equal(timer_threads(), 0);
	sema_init(&rivals_go, 0);
	for (uintptr_t i = 0; i < NR_RIVALS; i++)
		rivals[i] = host_spawn("rival", rival, (void *)i, HOST_PRIO_MAIN + 2);
	sim_irq_at = irq_wakes_a_rival;
	thread_join(host_spawn("starter", first_starter, NULL, HOST_PRIO_MAIN + 1));
	sim_irq_at = NULL;
	for (unsigned int i = woken_rivals; i < NR_RIVALS; i++)
		up(&rivals_go);         /* the rest set up their timers after the start */
	for (int i = 0; i < NR_RIVALS; i++)
		thread_join(rivals[i]);
	printf("# %u rivals woken inside the first timer_setup()\n", woken_rivals);
	assert_true(woken_rivals > 0);
	assert_int_equal(timer_threads(), 1);
	j0 = jiffies_read();
	for (int i = 0; i <= NR_RIVALS; i++)
		mod_timer(&rival_timer[i], j0 + 1);
	sleep_ticks(3);
	assert_int_equal(fired, NR_RIVALS + 1);
	for (int i = 0; i <= NR_RIVALS; i++)
		assert_string_equal(fired_in[i], "timers");
}

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
	EXPECT_PANIC(do_uninitialised, NULL, "mod_timer(", "thread 'main'",
		     "not an initialised timer");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(one_timer_thread_whatever_the_interleaving),       /* first */
		HOST_TEST(one_shot_and_periodic),
		HOST_TEST(del_timer_sync_waits_for_the_callback),
		HOST_TEST(uninitialised_timer_is_reported),
	};

	return host_run_groups("timer_list", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
