/* Scheduler behaviour on target: priorities, slices, IRQ preemption, sync. */
#include <stdio.h>
#include <lokal/thread.h>
#include <lokal/mutex.h>
#include <lokal/preempt.h>
#include <lokal/irq.h>
#include <lokal/app.h>
#include <asm/mach.h>          /* board_irq_unmask(): to unmask a line with no handler */
#include "ktest.h"

static volatile int order[16];
static volatile int norder;

static void note(void *arg)
{
	order[norder++] = (int)(intptr_t)arg;
}

static void higher_priority_runs_at_once(void)
{
	struct thread *t;

	norder = 0;
	t = thread_create("hi", note, (void *)1, PRIO_MAIN + 1, 0);
	note((void *)2);
	KT_ASSERT(t);
	thread_join(t);
	KT_ASSERT_EQ(norder, 2);
	KT_ASSERT_EQ(order[0], 1);      /* ran before thread_create returned */
	KT_ASSERT_EQ(order[1], 2);
}

static void lower_priority_waits(void)
{
	struct thread *t;

	norder = 0;
	t = thread_create("lo", note, (void *)1, PRIO_MAIN - 1, 0);
	note((void *)2);
	thread_join(t);
	KT_ASSERT_EQ(order[0], 2);
	KT_ASSERT_EQ(order[1], 1);
}

static volatile unsigned long spins[2];
static volatile bool stop_spinning;

static void spinner(void *arg)
{
	int i = (int)(intptr_t)arg;

	while (!stop_spinning)
		spins[i]++;
}

static void tick_preempts_equal_priority_round_robin(void)
{
	struct thread *a, *b;

	stop_spinning = false;
	spins[0] = spins[1] = 0;
	/* Neither spinner ever yields: only the tick can share the CPU. */
	a = thread_create("spin0", spinner, (void *)0, PRIO_MAIN - 1, 0);
	b = thread_create("spin1", spinner, (void *)1, PRIO_MAIN - 1, 0);
	sleep_ticks(8);         /* two default slices (2 ticks) each */
	stop_spinning = true;
	thread_join(a);
	thread_join(b);
	KT_ASSERT(spins[0] > 1000);
	KT_ASSERT(spins[1] > 1000);
}

static struct semaphore irq_sem;
static volatile int irq_seen, woken_before_return;

static void soft_irq_handler(unsigned int irq, void *arg)
{
	(void)arg;
	irq_clear_soft(irq);
	irq_seen = 1;
	up(&irq_sem);
}

static void waiter(void *arg)
{
	(void)arg;
	down(&irq_sem);
	woken_before_return = irq_seen;
}

static void irq_wakeup_preempts_on_irq_exit(void)
{
	struct thread *t;
	volatile int after;

	sema_init(&irq_sem, 0);
	irq_seen = woken_before_return = 0;
	KT_ASSERT(request_irq(irq_soft_line(), soft_irq_handler, NULL) == 0);
	t = thread_create("waiter", waiter, NULL, PRIO_MAIN + 2, 0);
	irq_raise_soft(irq_soft_line());
	/* The woken thread ran between the IRQ and this line. */
	after = woken_before_return;
	thread_join(t);
	free_irq(irq_soft_line());
	KT_ASSERT_EQ(after, 1);
}

static void preempt_disable_defers_the_switch(void)
{
	struct thread *t;
	int inside;

	norder = 0;
	t = thread_create_suspended("hi", note, (void *)1, PRIO_MAIN + 1, 0);
	preempt_disable();
	thread_resume(t);
	inside = norder;
	preempt_enable();               /* the switch happens here */
	note((void *)2);
	thread_join(t);
	KT_ASSERT_EQ(inside, 0);
	KT_ASSERT_EQ(order[0], 1);
	KT_ASSERT_EQ(order[1], 2);
}

static void sleeper(void *arg)
{
	sleep_ms((unsigned int)(intptr_t)arg);
	note(arg);
}

static void sleepers_wake_in_deadline_order(void)
{
	struct thread *t[3];

	norder = 0;
	t[0] = thread_create("s30", sleeper, (void *)30, PRIO_MAIN + 1, 0);
	t[1] = thread_create("s10", sleeper, (void *)10, PRIO_MAIN + 1, 0);
	t[2] = thread_create("s20", sleeper, (void *)20, PRIO_MAIN + 1, 0);
	for (int i = 0; i < 3; i++)
		thread_join(t[i]);
	KT_ASSERT_EQ(order[0], 10);
	KT_ASSERT_EQ(order[1], 20);
	KT_ASSERT_EQ(order[2], 30);
}

static struct mutex m = MUTEX_INIT(m);
static volatile int in_section, overlap;

static void locker(void *arg)
{
	for (int i = 0; i < 50; i++) {
		mutex_lock(&m);
		if (in_section++)
			overlap = 1;
		thread_yield();
		in_section--;
		mutex_unlock(&m);
		if (arg)
			sleep_ticks(1);
	}
}

static void mutex_excludes(void)
{
	struct thread *a, *b, *c;

	overlap = 0;
	a = thread_create("lock0", locker, NULL, PRIO_MAIN - 1, 0);
	b = thread_create("lock1", locker, NULL, PRIO_MAIN - 1, 0);
	c = thread_create("lock2", locker, (void *)1, PRIO_MAIN + 1, 0);
	thread_join(a);
	thread_join(b);
	thread_join(c);
	KT_ASSERT_EQ(overlap, 0);
	KT_ASSERT(m.owner == NULL);
}

/* Priority inversion: M spins while L holds what H needs; L must borrow H's priority. */
static struct mutex pi = MUTEX_INIT(pi);
static volatile bool m_done, h_got_lock_before_m_done;
static struct thread *pi_h, *pi_m;

static void pi_high(void *arg)
{
	(void)arg;
	mutex_lock(&pi);
	h_got_lock_before_m_done = !m_done;
	mutex_unlock(&pi);
}

static void pi_mid(void *arg)
{
	uint64_t end = jiffies_read() + 4;

	(void)arg;
	while (jiffies_read() < end)
		;               /* 4 ticks of CPU, never sleeping: L's section is far shorter */
	m_done = true;
}

static void pi_low(void *arg)
{
	(void)arg;
	mutex_lock(&pi);
	pi_h = thread_create("H", pi_high, NULL, PRIO_MAIN + 1, 0);  /* blocks on pi at once */
	/* Outranks L's own priority: without inheritance it would run now, to the end. */
	pi_m = thread_create("M", pi_mid, NULL, PRIO_MAIN - 2, 0);
	for (volatile int i = 0; i < 1000; i++)
		;
	mutex_unlock(&pi);
}

static void mutex_priority_inheritance(void)
{
	struct thread *l;

	m_done = h_got_lock_before_m_done = false;
	l = thread_create("L", pi_low, NULL, PRIO_MAIN - 3, 0);
	thread_join(l);
	thread_join(pi_h);
	thread_join(pi_m);
	KT_ASSERT(h_got_lock_before_m_done);
}

/*
 * thread_yield()'s fast path (exactly one peer waiting: swap places) and
 * its general path (more peers) must give the same round robin.
 */
static void yield_three_times(void *arg)
{
	for (int i = 0; i < 3; i++) {
		note(arg);
		thread_yield();
	}
}

static void yield_round_robin(int peers)
{
	struct thread *t[3];

	norder = 0;
	for (int i = 0; i < peers; i++)
		t[i] = thread_create_suspended("yield", yield_three_times, (void *)(intptr_t)(i + 1),
					       PRIO_MAIN + 1, 0);
	preempt_disable();              /* all queued before the first runs */
	for (int i = 0; i < peers; i++)
		thread_resume(t[i]);
	preempt_enable();
	for (int i = 0; i < peers; i++)
		thread_join(t[i]);
	KT_ASSERT_EQ(norder, 3 * peers);
	for (int i = 0; i < 3 * peers; i++)
		KT_ASSERT_EQ(order[i], i % peers + 1);
}

static void yield_alternates_between_two_peers(void)
{
	yield_round_robin(2);
}

static void yield_cycles_through_three_peers(void)
{
	yield_round_robin(3);
}

/*
 * An IRQ that wakes a more urgent thread preempts A (irq_exit()'s fast
 * path, the woken thread alone at its priority). A was not done with its
 * slice: when the urgent thread blocks, A goes on before its peer B.
 */
static void urgent_waiter(void *arg)
{
	(void)arg;
	down(&irq_sem);
	note((void *)'H');
}

static void raise_and_note(void *arg)
{
	note(arg);
	irq_raise_soft(irq_soft_line());        /* 'H' runs before this returns */
	note((void *)'a');
}

static void irq_preempted_thread_resumes_before_its_peer(void)
{
	struct thread *h, *a, *b;

	norder = 0;
	sema_init(&irq_sem, 0);
	KT_ASSERT(request_irq(irq_soft_line(), soft_irq_handler, NULL) == 0);
	h = thread_create("H", urgent_waiter, NULL, PRIO_MAIN + 2, 0);  /* blocks at once */
	a = thread_create_suspended("A", raise_and_note, (void *)'A', PRIO_MAIN + 1, 0);
	b = thread_create_suspended("B", note, (void *)'B', PRIO_MAIN + 1, 0);
	preempt_disable();
	thread_resume(a);
	thread_resume(b);
	preempt_enable();
	thread_join(a);
	thread_join(b);
	thread_join(h);
	free_irq(irq_soft_line());
	KT_ASSERT_EQ(norder, 4);
	KT_ASSERT_EQ(order[0], 'A');
	KT_ASSERT_EQ(order[1], 'H');
	KT_ASSERT_EQ(order[2], 'a');
	KT_ASSERT_EQ(order[3], 'B');
}

static void exiter(void *arg)
{
	thread_exit((int)(intptr_t)arg);
}

static void join_returns_exit_code(void)
{
	struct thread *t = thread_create("exit", exiter, (void *)42, PRIO_MAIN - 1, 0);

	KT_ASSERT_EQ(thread_join(t), 42);
}

static void ps_lists_threads(void)
{
	struct thread *t = thread_create("lo", note, (void *)0, PRIO_MAIN - 1, 0);

	thread_ps();
	KT_ASSERT(thread_stack_unused(t) > 0);
	thread_join(t);
}

/* ---- the IRQ table: every free line's slot reports it ---- */

static volatile unsigned int irq_hits;

static void count_irq(unsigned int irq, void *arg)
{
	(void)arg;
	irq_clear_soft(irq);
	irq_hits++;
}

/* A line is taken once, freed, taken again; bad requests are refused. */
static void irq_lines_are_taken_and_freed(void)
{
	unsigned int line = irq_soft_line();

	irq_hits = 0;
	KT_ASSERT_EQ(request_irq(line, count_irq, NULL), 0);
	KT_ASSERT_EQ(request_irq(line, count_irq, NULL), -1);
	KT_ASSERT_EQ(request_irq(line, NULL, NULL), -1);
	KT_ASSERT_EQ(request_irq(1000, count_irq, NULL), -1);
	irq_raise_soft(line);
	KT_ASSERT_EQ(irq_hits, 1);
	free_irq(line);
	KT_ASSERT_EQ(request_irq(line, count_irq, NULL), 0);
	irq_raise_soft(line);
	KT_ASSERT_EQ(irq_hits, 2);
	free_irq(line);
}

/*
 * A line unmasked with no handler (a driver's bug) runs the free slot's
 * handler: it masks the line and warns (tests.list matches the warning),
 * and the dispatch has no NULL test to take instead.
 */
static void unexpected_irq_is_masked_and_reported(void)
{
	unsigned int line = irq_soft_line();

	irq_hits = 0;
	board_irq_unmask(line);
	irq_raise_soft(line);           /* taken at once: masked by the free slot's handler */
	irq_raise_soft(line);           /* masked: not taken again */
	irq_clear_soft(line);
	KT_ASSERT_EQ(irq_hits, 0);
	KT_ASSERT_EQ(request_irq(line, count_irq, NULL), 0);    /* the slot is still free */
	irq_raise_soft(line);
	KT_ASSERT_EQ(irq_hits, 1);
	free_irq(line);
}

KTEST_MAIN(KTEST(higher_priority_runs_at_once), KTEST(lower_priority_waits),
	   KTEST(tick_preempts_equal_priority_round_robin),
	   KTEST(irq_wakeup_preempts_on_irq_exit), KTEST(preempt_disable_defers_the_switch),
	   KTEST(sleepers_wake_in_deadline_order), KTEST(mutex_excludes),
	   KTEST(mutex_priority_inheritance),
	   KTEST(yield_alternates_between_two_peers), KTEST(yield_cycles_through_three_peers),
	   KTEST(irq_preempted_thread_resumes_before_its_peer),
	   KTEST(join_returns_exit_code), KTEST(ps_lists_threads),
	   KTEST(irq_lines_are_taken_and_freed), KTEST(unexpected_irq_is_masked_and_reported))
