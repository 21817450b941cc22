/*
 * Suspend and resume on the real scheduler: a ready thread stops at once;
 * suspending oneself blocks; a waiting thread's wait ends (given or timed
 * out) but it stays stopped until resumed, its result kept; local kmaps
 * and mutexes survive a suspension; threads created suspended.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include "host_test.h"
#include <lokal/timeout.h>
#include <lokal/platform.h>
#include <asm/irqflags.h>

static volatile unsigned long spins;
static volatile int stop;

static void spinner(void *arg)
{
	(void)arg;
	while (!stop) {
		spins++;
		host_tick();            /* time passes while it runs */
	}
}

static void ready_thread_stops_and_goes_on(void **state)
{
	struct thread *t;
	unsigned long before;

	(void)state;
	stop = 0;
	spins = 0;
	t = host_spawn("spin", spinner, NULL, HOST_PRIO_MAIN - 1);
	sleep_ticks(2);                         /* it runs while main sleeps */
	assert_true(spins > 0);
	thread_suspend(t);
	assert_int_equal(t->state, THREAD_SUSPENDED);
	before = spins;
	sleep_ticks(3);
	assert_int_equal(spins, before);        /* stopped */
	assert_true(thread_resume(t));
	assert_false(thread_resume(t));         /* not suspended any more */
	sleep_ticks(2);
	assert_true(spins > before);
	stop = 1;
	thread_join(t);
}

static volatile int self_steps;

static void self_suspender(void *arg)
{
	(void)arg;
	self_steps = 1;
	thread_suspend(current);
	self_steps = 2;
}

static void suspending_oneself_blocks(void **state)
{
	struct thread *t;

	(void)state;
	self_steps = 0;
	t = host_spawn("self", self_suspender, NULL, HOST_PRIO_MAIN + 1);
	assert_int_equal(self_steps, 1);
	assert_int_equal(t->state, THREAD_SUSPENDED);
	thread_resume(t);                       /* more urgent: runs at once */
	assert_int_equal(self_steps, 2);
	thread_join(t);
}

static struct semaphore sem;
static volatile int w_result;

static void sem_waiter(void *arg)
{
	w_result = down_timeout(&sem, (long)(intptr_t)arg);
}

static void waiting_thread_stays_stopped_after_its_wait(void **state)
{
	struct thread *t;

	(void)state;
	/* Given while suspended. */
	sema_init(&sem, 0);
	w_result = 1;
	t = host_spawn("w", sem_waiter, (void *)MAX_SCHEDULE_TIMEOUT, HOST_PRIO_MAIN + 1);
	thread_suspend(t);
	up(&sem);
	assert_int_equal(t->state, THREAD_SUSPENDED);
	assert_int_equal(w_result, 1);
	thread_resume(t);
	assert_int_equal(w_result, 0);
	assert_int_equal(sem.count, 0);
	thread_join(t);
	/* Timed out while suspended. */
	w_result = 1;
	t = host_spawn("w", sem_waiter, (void *)2, HOST_PRIO_MAIN + 1);
	thread_suspend(t);
	host_tick();
	host_tick();
	assert_int_equal(t->state, THREAD_SUSPENDED);
	assert_int_equal(w_result, 1);
	thread_resume(t);
	assert_int_equal(w_result, -ETIMEDOUT);
	thread_join(t);
}

static struct page *pg;
static volatile uint32_t kmap_bad;

static void kmap_holder(void *arg)
{
	uint32_t *p = kmap_local_page(pg);
	uint32_t *q = kmap_local_page(arg);

	for (unsigned int i = 0; i < PAGE_SIZE / 4; i++)
		p[i] = q[i] = i * 3u;
	thread_suspend(current);
	for (unsigned int i = 0; i < PAGE_SIZE / 4; i++)
		kmap_bad += (p[i] != i * 3u) + (q[i] != i * 3u);
	kunmap_local(q);
	kunmap_local(p);
}

/* Another thread reuses the same slots while the holder is stopped. */
static void kmaps_survive_a_suspension(void **state)
{
	struct thread *t;
	uint32_t *mine;

	(void)state;
	sim_clear_violations();
	kmap_bad = 0;
	pg = host_alloc(ZONE_HIGHMEM);
	t = host_spawn("holder", kmap_holder, host_alloc(ZONE_HIGHMEM), HOST_PRIO_MAIN + 1);
	assert_int_equal(t->state, THREAD_SUSPENDED);
	assert_int_equal(t->kmap_ctrl.idx, 2 * KM_INCR);
	mine = kmap_local_page(host_alloc(ZONE_HIGHMEM));
	for (unsigned int i = 0; i < PAGE_SIZE / 4; i++)
		mine[i] = 0xdead;
	kunmap_local(mine);
	thread_resume(t);
	thread_join(t);
	assert_int_equal(kmap_bad, 0);
	if (sim_violations(SIM_NR_VIOLATIONS))
		fail_msg("model: %s", sim_last_violation());
}

static struct mutex mtx;
static volatile int locked_by_w;

static void mutex_holder(void *arg)
{
	(void)arg;
	mutex_lock(&mtx);
	thread_suspend(current);
	mutex_unlock(&mtx);
}

static void mutex_waiter(void *arg)
{
	(void)arg;
	mutex_lock(&mtx);
	locked_by_w = 1;
	mutex_unlock(&mtx);
}

static void mutex_stays_owned_while_suspended(void **state)
{
	struct thread *h, *w;

	(void)state;
	mutex_init(&mtx);
	locked_by_w = 0;
	h = host_spawn("holder", mutex_holder, NULL, HOST_PRIO_MAIN - 1);
	sleep_ticks(1);                         /* holder locks and stops */
	assert_ptr_equal(mtx.owner, h);
	w = host_spawn("w", mutex_waiter, NULL, HOST_PRIO_MAIN + 2);
	assert_int_equal(h->prio, HOST_PRIO_MAIN + 2);  /* lent, but stopped */
	sleep_ticks(2);
	assert_int_equal(locked_by_w, 0);
	thread_resume(h);                       /* runs boosted, unlocks */
	assert_int_equal(locked_by_w, 1);
	thread_join(w);
	thread_join(h);
}

static volatile int ran;

static void mark_ran(void *arg)
{
	(void)arg;
	ran = 1;
}

static void created_suspended_runs_when_resumed(void **state)
{
	struct thread *t;

	(void)state;
	ran = 0;
	t = thread_create_suspended("later", mark_ran, NULL, HOST_PRIO_MAIN + 1, HOST_STACK);
	assert_non_null(t);
	sleep_ticks(1);
	assert_int_equal(ran, 0);
	/* Resumed from an IRQ: runs at the IRQ's exit. */
	{
		unsigned long flags = arch_local_irq_save();

		irq_enter();
		thread_resume(t);
		irq_exit();
		arch_local_irq_restore(flags);
	}
	assert_int_equal(ran, 1);
	thread_join(t);
}

/* ps's columns line up whatever the state: "suspended" is its longest. */
static void ps_columns_line_up_with_a_suspended_thread(void **state)
{
	char line[160], *head = NULL;
	struct thread *t;
	FILE *f = tmpfile();
	int saved;

	(void)state;
	assert_non_null(f);
	t = thread_create_suspended("stopped", mark_ran, NULL, HOST_PRIO_MAIN + 1, HOST_STACK);
	assert_non_null(t);
	fflush(stdout);
	saved = dup(1);
	dup2(fileno(f), 1);
	thread_ps();
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "THREAD")) {
			head = strdup(line);
			continue;
		}
		assert_non_null(head);
		/* Each row's PRIO ends where the header's does. */
		assert_true(strlen(line) > (size_t)(strstr(head, "PRIO") - head + 4));
		assert_true(line[strstr(head, "PRIO") - head + 3] != ' ');
		assert_true(line[strstr(head, "PRIO") - head + 4] == ' ');
	}
	assert_non_null(head);
	free(head);
	fclose(f);
	thread_resume(t);
	thread_join(t);
}

static void do_suspend_null(void *arg)
{
	(void)arg;
	thread_suspend(NULL);
}

static void do_suspend_self_in_irq(void *arg)
{
	(void)arg;
	irq_enter();
	thread_suspend(current);
}

static void misuse_is_reported(void **state)
{
	(void)state;
	EXPECT_PANIC(do_suspend_null, NULL, "thread_suspend(", "thread 'main'", "NULL thread");
	EXPECT_PANIC(do_suspend_self_in_irq, NULL, "interrupted thread 'main'", "IRQ handler");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(ready_thread_stops_and_goes_on),
		HOST_TEST(suspending_oneself_blocks),
		HOST_TEST(waiting_thread_stays_stopped_after_its_wait),
		HOST_TEST(kmaps_survive_a_suspension),
		HOST_TEST(mutex_stays_owned_while_suspended),
		HOST_TEST(created_suspended_runs_when_resumed),
		HOST_TEST(ps_columns_line_up_with_a_suspended_thread),
		HOST_TEST(misuse_is_reported),
	};

	return host_run_groups("suspend", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
