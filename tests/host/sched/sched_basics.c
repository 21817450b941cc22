/*
 * Priorities, yields, the switch trace, time slices, sleepers, mutexes and
 * priority inheritance, on the real scheduler.
 * Part of test_sched_real (tests/host/sched/sched_tests.h).
 */
#include "sched_tests.h"

void higher_priority_preempts_creator(void **state)
{
	struct thread *hi, *lo;

	(void)state;
	log_reset();
	lo = spawn("lo", note, (void *)'l', PRIO_TEST - 1);
	hi = spawn("hi", note, (void *)'h', PRIO_TEST + 1);
	note((void *)'m');
	thread_join(hi);
	thread_join(lo);
	assert_string_equal(log_buf, "hml");
}

/* A yield is not a sleep: with page faults disabled the caller still yields to its peer. */
void yield_with_pagefaults_disabled_lets_the_peer_run(void **state)
{
	struct thread *peer;

	(void)state;
	log_reset();
	peer = spawn("peer", note, (void *)'p', current->prio);
	pagefault_disable();
	thread_yield();
	log_char('m');
	pagefault_enable();
	thread_join(peer);
	assert_string_equal(log_buf, "pm");
}

static void yield_once(void *arg)
{
	(void)arg;
	thread_yield();
}

/* How many TRACE_THREAD events name thread id among the first n. */
static unsigned int traced_switches_to(unsigned int id, unsigned int n)
{
	struct trace_event *ev = trace_events_mutable();
	unsigned int found = 0;

	assert_non_null(ev);
	for (unsigned int i = 0; i < n; i++)
		found += ev[i].signal == TRACE_THREAD && ev[i].value == id;
	return found;
}

/*
 * The trace marks each thread's switches to record: a thread created after
 * it started is recorded too, and nobody is once it stopped.
 */
void trace_records_every_threads_switches_until_stopped(void **state)
{
	struct thread *peer;
	unsigned int peer_id, n;

	(void)state;
	trace_start();
	peer = spawn("peer", yield_once, NULL, current->prio);
	peer_id = peer->id;
	thread_yield();                 /* to peer, which yields back */
	thread_join(peer);
	trace_stop();
	n = trace_count(NULL);
	assert_true(traced_switches_to(peer_id, n) >= 1);
	assert_true(traced_switches_to(current->id, n) >= 1);
	peer = spawn("peer2", yield_once, NULL, current->prio);
	thread_yield();
	thread_join(peer);
	assert_int_equal(trace_count(NULL), n);
}

/* Busy threads that take a tick every iteration: slices decide who runs. */
static void busy(void *arg)
{
	for (int i = 0; i < 8; i++) {
		log_char((char)(intptr_t)arg);
		host_tick();
	}
}

void equal_priorities_share_by_time_slice(void **state)
{
	struct thread *a, *b;

	(void)state;
	log_reset();
	a = spawn_suspended("a", busy, (void *)'a', PRIO_TEST - 1);
	b = spawn_suspended("b", busy, (void *)'b', PRIO_TEST - 1);
	preempt_disable();
	thread_resume(a);
	thread_resume(b);
	preempt_enable();
	thread_join(a);
	thread_join(b);
	/* SCHED_SLICE_TICKS = 2: runs of two, alternating. */
	assert_string_equal(log_buf, "aabbaabbaabbaabb");
}

/* a and b at one priority, each given its own slice, started together. */
static void run_pair_with_slices(unsigned int slice_a, unsigned int slice_b)
{
	struct thread *a, *b;

	log_reset();
	a = spawn_suspended("a", busy, (void *)'a', PRIO_TEST - 1);
	b = spawn_suspended("b", busy, (void *)'b', PRIO_TEST - 1);
	thread_set_timeslice(a, slice_a);
	thread_set_timeslice(b, slice_b);
	preempt_disable();
	thread_resume(a);
	thread_resume(b);
	preempt_enable();
	thread_join(a);
	thread_join(b);
}

void time_slice_zero_keeps_the_cpu_until_done(void **state)
{
	(void)state;
	run_pair_with_slices(0, 0);
	/* No rotation: each runs its eight ticks in one go. */
	assert_string_equal(log_buf, "aaaaaaaabbbbbbbb");
}

void time_slice_length_is_each_threads_own(void **state)
{
	(void)state;
	run_pair_with_slices(3, 1);
	/* a rotates after 3 ticks, b after 1; b finishes alone once a is done. */
	assert_string_equal(log_buf, "aaabaaabaabbbbbb");
}

static void tick_sleeper(void *arg)
{
	sleep_ticks(1);
	note(arg);
}

void preempted_thread_resumes_before_its_peers(void **state)
{
	struct thread *a, *b, *h;

	(void)state;
	log_reset();
	h = spawn("h", tick_sleeper, (void *)'H', PRIO_TEST + 1);  /* sleeps 1 tick */
	a = spawn_suspended("a", busy, (void *)'a', PRIO_TEST - 1);
	b = spawn_suspended("b", busy, (void *)'b', PRIO_TEST - 1);
	preempt_disable();
	thread_resume(a);
	thread_resume(b);
	preempt_enable();
	thread_join(h);
	thread_join(a);
	thread_join(b);
	/*
	 * a's first tick wakes h, which preempts a halfway through its slice;
	 * a then finishes that slice before b gets the CPU.
	 */
	assert_string_equal(log_buf, "aHabbaabbaabbaabb");
}

static void sleeper(void *arg)
{
	sleep_ticks((unsigned int)(intptr_t)arg);
	log_char((char)('0' + (intptr_t)arg));
}

void sleepers_wake_in_tick_order(void **state)
{
	struct thread *t[3];
	uint64_t j0 = jiffies_read();

	(void)state;
	log_reset();
	t[0] = spawn("s3", sleeper, (void *)3, PRIO_TEST + 1);
	t[1] = spawn("s1", sleeper, (void *)1, PRIO_TEST + 1);
	t[2] = spawn("s2", sleeper, (void *)2, PRIO_TEST + 1);
	for (int i = 0; i < 3; i++)
		thread_join(t[i]);
	assert_string_equal(log_buf, "123");
	assert_true(jiffies_read() - j0 >= 3);
}

void preempt_enable_runs_the_deferred_switch(void **state)
{
	struct thread *h;
	int inside;

	(void)state;
	log_reset();
	h = spawn_suspended("h", note, (void *)'h', PRIO_TEST + 1);
	preempt_disable();
	thread_resume(h);
	inside = log_len;
	preempt_enable();
	note((void *)'m');
	thread_join(h);
	assert_int_equal(inside, 0);
	assert_string_equal(log_buf, "hm");
}

static struct mutex mtx;

static void mutex_user(void *arg)
{
	mutex_lock(&mtx);
	log_char((char)(intptr_t)arg);
	mutex_unlock(&mtx);
}

void mutex_goes_to_most_urgent_waiter(void **state)
{
	struct thread *t[3];

	(void)state;
	log_reset();
	mutex_init(&mtx);
	mutex_lock(&mtx);
	t[0] = spawn("x", mutex_user, (void *)'x', PRIO_TEST + 1);
	t[1] = spawn("y", mutex_user, (void *)'y', PRIO_TEST + 2);
	t[2] = spawn("z", mutex_user, (void *)'z', PRIO_TEST + 1);
	log_char('m');
	mutex_unlock(&mtx);
	for (int i = 0; i < 3; i++)
		thread_join(t[i]);
	assert_string_equal(log_buf, "myxz");     /* y outranks x and z; x came before z */
	assert_null(mtx.owner);
}

/* Priority inversion: L holds the mutex H wants while M could starve L. */
static struct thread *pi_h, *pi_m;
static int pi_l_prio_while_h_waits;

static void pi_high(void *arg)
{
	(void)arg;
	mutex_lock(&mtx);
	log_char('H');
	mutex_unlock(&mtx);
}

static void pi_mid(void *arg)
{
	(void)arg;
	log_char('M');
}

static void pi_low(void *arg)
{
	(void)arg;
	mutex_lock(&mtx);
	log_char('L');
	pi_h = spawn("H", pi_high, NULL, PRIO_TEST + 1);   /* blocks on mtx, lends its priority */
	pi_l_prio_while_h_waits = current->prio;
	pi_m = spawn("M", pi_mid, NULL, PRIO_TEST - 1);    /* must not preempt the boosted L */
	log_char('l');
	mutex_unlock(&mtx);                                 /* back to 14: H runs, then M */
	log_char('E');
}

void mutex_lends_priority_to_its_owner(void **state)
{
	struct thread *l;

	(void)state;
	log_reset();
	mutex_init(&mtx);
	l = spawn("L", pi_low, NULL, PRIO_TEST - 2);
	thread_join(l);
	thread_join(pi_h);
	thread_join(pi_m);
	assert_int_equal(pi_l_prio_while_h_waits, PRIO_TEST + 1);
	assert_string_equal(log_buf, "LlHME");
}
