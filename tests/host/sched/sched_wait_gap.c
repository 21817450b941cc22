/*
 * An interrupt between a waiter's queueing and its switch: wake-ups,
 * time-outs and maps landing in that gap.
 * Part of test_sched_real (tests/host/sched/sched_tests.h).
 */
#include "sched_tests.h"

static struct thread *gap_waiter;
static void (*gap_irq)(void);
static struct completion gap_done, gap_urgent_done;
static long gap_ret;
static unsigned int gap_switches;
static bool gap_on_rq;

/*
 * An unmask while the waiter runs yet is already BLOCKED or SLEEPING is
 * its schedule_waiting() window: an interrupt arrives there, once.
 */
static void irq_in_wait_gap(enum sim_irq_point where, unsigned long vaddr)
{
	void (*irq)(void) = gap_irq;

	(void)vaddr;
	if (where != SIM_IRQ_AT_UNMASK || !irq || current != gap_waiter ||
	    (current->state != THREAD_BLOCKED && current->state != THREAD_SLEEPING))
		return;
	gap_irq = NULL;
	irq_enter();
	irq();
	irq_exit();
}

static void gap_complete(void)
{
	complete(&gap_done);
}

static void gap_tick(void)
{
	sched_tick();
}

static void gap_complete_urgent(void)
{
	complete(&gap_urgent_done);
}

/* Is t on its ready queue? (The running thread never is.) */
static bool on_ready_queue(struct thread *t)
{
	struct list_head *pos;

	list_for_each(pos, &pcpu_hot.rq.queue[t->prio])
		if (pos == &t->node)
			return true;
	return false;
}

static void gap_waiter_fn(void *arg)
{
	long timeout = (long)(intptr_t)arg;
	unsigned int before = current->switches_in;

	gap_ret = wait_for_completion_timeout(&gap_done, timeout);
	gap_switches = current->switches_in - before;
	gap_on_rq = on_ready_queue(current);
	log_char('W');
}

/*
 * W (fn(arg), priority +1) and, with peer, its equal P (logs 'p') run;
 * irq lands once in W's gap. Returns when they have ended, the hook gone
 * and the interrupt seen to land.
 */
static void gap_run(void (*irq)(void), void (*fn)(void *), void *arg, bool peer)
{
	struct thread *w, *p = NULL;

	log_reset();
	init_completion(&gap_done);
	gap_irq = irq;
	w = spawn_suspended("W", fn, arg, PRIO_TEST + 1);
	if (peer)
		p = spawn_suspended("P", note, (void *)'p', PRIO_TEST + 1);
	sim_irq_at = irq_in_wait_gap;
	preempt_disable();
	thread_resume(w);
	if (p)
		thread_resume(p);
	gap_waiter = w;
	preempt_enable();
	thread_join(w);
	if (p)
		thread_join(p);
	sim_irq_at = NULL;
	assert_null(gap_irq);
}

/*
 * The completion comes between W's queueing and its schedule(): W must
 * not block (it stays off every ready queue and keeps the CPU, ahead of
 * its peer P) and the wait succeeds.
 */
void wake_in_wait_gap_keeps_the_cpu(void **state)
{
	(void)state;
	gap_run(gap_complete, gap_waiter_fn, (void *)(intptr_t)100, true);
	assert_true(gap_ret > 0);
	assert_int_equal(gap_switches, 0);
	assert_false(gap_on_rq);
	assert_string_equal(log_buf, "Wp");
}

/*
 * W's one-tick deadline passes between its queueing and its schedule():
 * the wait ends as timed out, without a switch, off the timeout wheel.
 */
void timeout_in_wait_gap_ends_the_wait(void **state)
{
	(void)state;
	gap_run(gap_tick, gap_waiter_fn, (void *)(intptr_t)1, false);
	assert_int_equal(gap_ret, 0);
	assert_int_equal(gap_switches, 0);
	assert_false(gap_on_rq);
	assert_string_equal(log_buf, "W");
}

static void urgent_fn(void *arg)
{
	(void)arg;
	wait_for_completion(&gap_urgent_done);
	log_char('U');
	complete(&gap_done);
}

/*
 * The interrupt in W's gap wakes U, which outranks W: no switch in the
 * gap (W's node is on the completion's queue), but W's schedule() goes
 * to U, which lets W go on.
 */
void urgent_wake_in_wait_gap_runs_at_the_switch(void **state)
{
	struct thread *u;

	(void)state;
	init_completion(&gap_urgent_done);
	u = spawn("U", urgent_fn, NULL, PRIO_TEST + 2);        /* runs and waits */
	gap_run(gap_complete_urgent, gap_waiter_fn, (void *)(intptr_t)100, false);
	thread_join(u);
	assert_true(gap_ret > 0);
	assert_int_equal(gap_switches, 1);
	assert_string_equal(log_buf, "UW");
}

static struct page *gap_page, *gap_held;
static uint32_t gap_seen;

/* The interrupt maps a page of its own over the waiter's map, then completes. */
static void gap_map_and_complete(void)
{
	uint32_t *v = kmap_local_page(gap_page);

	v[1] = 0x1a1a1a1a;
	kunmap_local(v);
	complete(&gap_done);
}

static void gap_holder_fn(void *arg)
{
	uint32_t *v = kmap_local_page(gap_held);

	(void)arg;
	v[0] = 0xfeedf00d;
	gap_ret = wait_for_completion_timeout(&gap_done, 100);
	gap_seen = v[0];
	kunmap_local(v);
	log_char('W');
}

/*
 * W waits holding a local map; the interrupt in its gap maps another page
 * on the slot above W's and unmaps it: W's map and data stay as they were,
 * and the model sees no stale line or alias.
 */
void irq_mapping_in_wait_gap_keeps_the_waiters_map(void **state)
{
	(void)state;
	sim_clear_violations();
	gap_held = alloc_page(ZONE_HIGHMEM);
	gap_page = alloc_page(ZONE_HIGHMEM);
	gap_run(gap_map_and_complete, gap_holder_fn, NULL, false);
	assert_true(gap_ret > 0);
	assert_int_equal(gap_seen, 0xfeedf00d);
	if (sim_violations(SIM_NR_VIOLATIONS))
		fail_msg("model: %s", sim_last_violation());
	__free_page(gap_page);
	__free_page(gap_held);
}
