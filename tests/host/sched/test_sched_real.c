/*
 * The real firmware/kernel scheduler, run on the host with arch/sim's
 * ucontext switch and the VIVT cache/TLB model: ready queues, priorities,
 * time slices, sleeping, sync primitives, and the kmap teardown/restore on
 * every switch with zero model violations.
 *
 * The cmocka runner itself runs in a "main" thread (priority 16), as apps
 * do on target; the boot thread becomes idle and advances time with
 * simulated ticks whenever nothing else is ready. Only the main thread
 * asserts: other threads record what happened.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <lokal/thread.h>
#include <lokal/sched-internal.h>
#include <lokal/mutex.h>
#include <lokal/completion.h>
#include <lokal/preempt.h>
#include <lokal/highmem.h>
#include <lokal/highmem-internal.h>
#include <asm/irqflags.h>
#include <lokal/mm.h>
#include <asm/sim.h>
#include <lokal/platform.h>
#include <lokal/trace.h>
#include "sched_host.h"

#define PRIO_TEST 16

static char log_buf[256];
static int log_len;

static void log_char(char c)
{
	if (log_len < (int)sizeof(log_buf) - 1)
		log_buf[log_len++] = c;
	log_buf[log_len] = 0;
}

static void log_reset(void)
{
	log_len = 0;
	log_buf[0] = 0;
}

static void note(void *arg)
{
	log_char((char)(intptr_t)arg);
}

static struct thread *spawn(const char *name, void (*fn)(void *), void *arg, int prio)
{
	struct thread *t = thread_create(name, fn, arg, prio, HOST_STACK);

	assert_non_null(t);
	return t;
}

/*
 * Not started: thread_create() may sleep, so threads that must be queued
 * together are made first and resumed with preemption off.
 */
static struct thread *spawn_suspended(const char *name, void (*fn)(void *), void *arg, int prio)
{
	struct thread *t = thread_create_suspended(name, fn, arg, prio, HOST_STACK);

	assert_non_null(t);
	return t;
}

static void higher_priority_preempts_creator(void **state)
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
static void yield_with_pagefaults_disabled_lets_the_peer_run(void **state)
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
static void trace_records_every_threads_switches_until_stopped(void **state)
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

static void equal_priorities_share_by_time_slice(void **state)
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

static void time_slice_zero_keeps_the_cpu_until_done(void **state)
{
	(void)state;
	run_pair_with_slices(0, 0);
	/* No rotation: each runs its eight ticks in one go. */
	assert_string_equal(log_buf, "aaaaaaaabbbbbbbb");
}

static void time_slice_length_is_each_threads_own(void **state)
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

static void preempted_thread_resumes_before_its_peers(void **state)
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

static void sleepers_wake_in_tick_order(void **state)
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

static void preempt_enable_runs_the_deferred_switch(void **state)
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

static void mutex_goes_to_most_urgent_waiter(void **state)
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

static void mutex_lends_priority_to_its_owner(void **state)
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

/* ---- the switch path against the VIVT model ---- */

struct mapper {
	struct page *pages[4];
	int depth;
	int rounds;
	unsigned long bad;
	uint32_t seed;
};

static uint32_t word(struct page *pg, uint32_t round, unsigned int w)
{
	return ((uint32_t)page_to_pfn(pg) << 16) ^ (round * 0x9e3779b9u) ^ w;
}

static void mapper_fn(void *arg)
{
	struct mapper *m = arg;

	for (int r = 0; r < m->rounds; r++) {
		uint32_t *va[4];

		for (int d = 0; d < m->depth; d++) {
			va[d] = kmap_local_page(m->pages[d]);
			for (unsigned int w = 0; w < PAGE_SIZE / 4; w += 8)
				va[d][w] = word(m->pages[d], (uint32_t)r, w);
		}
		/* Switched out and back while holding the maps: by yield or by a tick. */
		if (r % 2)
			thread_yield();
		else
			for (int i = 0; i < 2; i++)
				host_tick();
		for (int d = m->depth - 1; d >= 0; d--) {
			for (unsigned int w = 0; w < PAGE_SIZE / 4; w += 8)
				m->bad += va[d][w] != word(m->pages[d], (uint32_t)r, w);
			kunmap_local(va[d]);
		}
	}
}

static void switches_move_kmaps_coherently(void **state)
{
	struct mapper m[3];
	struct thread *t[3];
	struct sched_stats before, after;

	(void)state;
	sim_clear_violations();
	sched_get_stats(&before);
	for (int i = 0; i < 3; i++) {
		m[i] = (struct mapper){ .depth = i + 2, .rounds = 40 };
		for (int d = 0; d < 4; d++)
			assert_non_null(m[i].pages[d] = alloc_page(ZONE_HIGHMEM));
	}
	for (int i = 0; i < 3; i++)
		t[i] = spawn_suspended("mapper", mapper_fn, &m[i], PRIO_TEST - 1);
	preempt_disable();
	for (int i = 0; i < 3; i++)
		thread_resume(t[i]);
	preempt_enable();
	for (int i = 0; i < 3; i++)
		thread_join(t[i]);
	sched_get_stats(&after);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(m[i].bad, 0);
		/* and the data reached memory: read it through the pkmap pool */
		for (int d = 0; d < m[i].depth; d++) {
			uint32_t *p = kmap(m[i].pages[d]);

			assert_int_equal(p[8], word(m[i].pages[d], 39, 8));
			kunmap(m[i].pages[d]);
		}
	}
	assert_true(after.kmaps_restored - before.kmaps_restored >= 100);
	if (sim_violations(SIM_NR_VIOLATIONS))
		fail_msg("model: %s", sim_last_violation());
}

static void new_threads_start_without_maps(void **state)
{
	void *p = kmap_local_page(alloc_page(ZONE_HIGHMEM));
	struct thread *t;

	(void)state;
	log_reset();
	t = spawn("fresh", note, (void *)'f', PRIO_TEST + 1);
	thread_join(t);
	assert_int_equal(current->kmap_ctrl.idx, KM_INCR);
	kunmap_local(p);
	assert_string_equal(log_buf, "f");
}

/*
 * An interrupt that wakes a more urgent thread while a switch restores the
 * incoming thread's kmaps (interrupts are on there) cannot preempt at that
 * moment; the woken thread must run as soon as the switch completes, not
 * at the next tick.
 */
static struct semaphore go_a, wake_h;

static void irq_in_restore(unsigned long vaddr)
{
	(void)vaddr;
	sim_irq_at_tlb_flush = NULL;            /* one interrupt */
	irq_enter();
	up(&wake_h);
	irq_exit();
}

static void urgent(void *arg)
{
	(void)arg;
	down(&wake_h);
	log_char('H');
}

/* Map and unmap a page of one's own: the slot the holder left is reused. */
static void reuse_slot(void)
{
	void *p = kmap_local_page(alloc_page(ZONE_HIGHMEM));

	kunmap_local(p);
}

static void holder(void *arg)
{
	void *p = kmap_local_page(arg);

	down(&go_a);                            /* switched back in with a kmap to restore */
	log_char('A');
	kunmap_local(p);
}

static void wakeup_during_kmap_restore_runs_at_once(void **state)
{
	struct thread *h, *a;

	(void)state;
	log_reset();
	sema_init(&go_a, 0);
	sema_init(&wake_h, 0);
	h = spawn("urgent", urgent, NULL, PRIO_TEST + 4);
	a = spawn("holder", holder, alloc_page(ZONE_HIGHMEM), PRIO_TEST - 2);
	sleep_ticks(1);                         /* holder maps its page and blocks */
	/*
	 * So that the restore rewrites the slot (and invalidates its TLB entry)
	 * in every configuration: the deferred scheme would otherwise find the
	 * holder's PTE still in place and restore nothing.
	 */
	reuse_slot();
	up(&go_a);
	sim_irq_at_tlb_flush = irq_in_restore;  /* fires in the switch into holder */
	thread_join(a);
	thread_join(h);
	assert_null(sim_irq_at_tlb_flush);
	assert_string_equal(log_buf, "HA");
}

/*
 * Lost races in a row: each time the cycler is switched back in, an IRQ
 * in its kmap restore wakes a more urgent thread, which takes the CPU at
 * once and blocks again. The cycler's stack must not grow with the count.
 */
#define LOST_RACES 40
static struct thread *cycler_thread;
static struct semaphore go_cycler, wake_racer;
static int races_left, race_frames;
static uintptr_t race_frame[LOST_RACES];
static bool racer_stop;

static void irq_in_cycler_restore(unsigned long vaddr)
{
	(void)vaddr;
	/* Only the restore: not the racer's own maps, nor the cycler's teardown. */
	if (current != cycler_thread || pte_none(*virt_to_kpte(vaddr)))
		return;
	race_frame[race_frames++] = (uintptr_t)__builtin_frame_address(0);
	if (--races_left == 0)
		sim_irq_at_tlb_flush = NULL;
	irq_enter();
	up(&wake_racer);
	irq_exit();
}

static void racer(void *arg)
{
	(void)arg;
	for (;;) {
		down(&wake_racer);
		if (racer_stop)
			return;
		reuse_slot();           /* so that the deferred scheme restores the slot too */
	}
}

static void cycler(void *arg)
{
	void *p = kmap_local_page(arg);

	down(&go_cycler);
	kunmap_local(p);
}

static void lost_races_in_a_row_do_not_grow_the_stack(void **state)
{
	struct thread *r;

	(void)state;
	sema_init(&go_cycler, 0);
	sema_init(&wake_racer, 0);
	racer_stop = false;
	race_frames = 0;
	races_left = LOST_RACES;
	r = spawn("racer", racer, NULL, PRIO_TEST + 4);
	cycler_thread = spawn("cycler", cycler, alloc_page(ZONE_HIGHMEM), PRIO_TEST - 2);
	sleep_ticks(1);                 /* the cycler maps its page and blocks */
	reuse_slot();
	up(&go_cycler);
	sim_irq_at_tlb_flush = irq_in_cycler_restore;
	thread_join(cycler_thread);
	racer_stop = true;
	up(&wake_racer);
	thread_join(r);
	assert_int_equal(race_frames, LOST_RACES);
	for (int i = 1; i < LOST_RACES; i++)
		assert_int_equal(race_frame[i], race_frame[0]);
}

#if !CONFIG_KMAP_DEFER
/*
 * (KMAP_DEFER: a switch-out flushes nothing, so there is no flush for
 * these interrupts to land after; the tests below are left out.)
 *
 * Interrupts inside a switch-out: the outgoing thread holds a kmap, so the
 * switch takes its slot down with interrupts on while it is still current.
 * The "interrupt" lands right after the slot's D-cache flush.
 */
static struct semaphore sem_mid, sem_high, sem_self;
static struct page *window_page;

static void irq_up_mid(unsigned long vaddr)
{
	(void)vaddr;
	irq_enter();
	up(&sem_mid);
	irq_exit();
}

static void irq_up_self(unsigned long vaddr)
{
	(void)vaddr;
	irq_enter();
	up(&sem_self);
	irq_exit();
}

static void irq_tick(unsigned long vaddr)
{
	(void)vaddr;
	host_tick();
}

/* Block on sem holding a kmap; irq fires during the switch-out. */
static void block_holding_a_map(struct semaphore *sem, void (*irq)(unsigned long))
{
	void *p = kmap_local_page(window_page);

	host_irq_at_dcache_flush = irq;
	down(sem);
	kunmap_local(p);
}

static void mid_waiter(void *arg)
{
	(void)arg;
	down(&sem_mid);
	log_char('M');
}

static void high_blocker(void *arg)
{
	(void)arg;
	block_holding_a_map(&sem_high, irq_up_mid);
	log_char('H');
}

static void low_next(void *arg)
{
	(void)arg;
	log_char('m');
	up(&sem_high);
}

/*
 * H (prio +3) blocks holding a map, and the next thread chosen is m (+1).
 * An IRQ in the teardown wakes M (+2): M outranks m though not H, so the
 * switch must go to M rather than let m run first (an inversion that
 * would last until m blocks).
 */
static void wakeup_in_switch_out_outranking_next_runs_first(void **state)
{
	struct thread *mid, *high, *low;

	(void)state;
	sim_clear_violations();
	log_reset();
	sema_init(&sem_mid, 0);
	sema_init(&sem_high, 0);
	window_page = alloc_page(ZONE_HIGHMEM);
	mid = spawn("M", mid_waiter, NULL, PRIO_TEST + 2);     /* runs and blocks */
	high = spawn_suspended("H", high_blocker, NULL, PRIO_TEST + 3);
	low = spawn_suspended("m", low_next, NULL, PRIO_TEST + 1);
	preempt_disable();
	thread_resume(high);
	thread_resume(low);
	preempt_enable();
	thread_join(high);
	thread_join(low);
	thread_join(mid);
	assert_null(host_irq_at_dcache_flush);                  /* the IRQ did land */
	assert_string_equal(log_buf, "MmH");
	if (sim_violations(SIM_NR_VIOLATIONS))
		fail_msg("model: %s", sim_last_violation());
	__free_page(window_page);
}

static void self_blocker(void *arg)
{
	(void)arg;
	block_holding_a_map(&sem_self, irq_up_self);
	log_char('S');
}

/*
 * S blocks holding a map; an IRQ in the teardown gives the semaphore S
 * waits on. S is the most urgent ready thread again, so it must go on
 * rather than hand the CPU to the lower-priority m.
 */
static void wakeup_of_prev_in_switch_out_keeps_it_running(void **state)
{
	struct thread *self, *low;

	(void)state;
	sim_clear_violations();
	log_reset();
	sema_init(&sem_self, 0);
	window_page = alloc_page(ZONE_HIGHMEM);
	self = spawn_suspended("S", self_blocker, NULL, PRIO_TEST + 2);
	low = spawn_suspended("m", note, (void *)'m', PRIO_TEST + 1);
	preempt_disable();
	thread_resume(self);
	thread_resume(low);
	preempt_enable();
	thread_join(self);
	thread_join(low);
	assert_null(host_irq_at_dcache_flush);
	assert_string_equal(log_buf, "Sm");
	if (sim_violations(SIM_NR_VIOLATIONS))
		fail_msg("model: %s", sim_last_violation());
	__free_page(window_page);
}

static void yield_holding_a_map(void *arg)
{
	void *p = kmap_local_page(window_page);

	(void)arg;
	host_tick();                    /* one tick of a two-tick slice used */
	log_char('x');
	host_irq_at_dcache_flush = irq_tick;    /* the slice's last tick, mid-switch */
	thread_yield();
	log_char('X');
	kunmap_local(p);
}

/*
 * x yields holding a map; a tick lands in the teardown. x has already
 * given up the CPU (and sits at the tail of its queue): the tick must not
 * charge x's slice and count x as y's peer, which would preempt y at once
 * and undo the yield.
 */
static void tick_in_switch_out_does_not_undo_a_yield(void **state)
{
	struct thread *x, *y;

	(void)state;
	sim_clear_violations();
	log_reset();
	window_page = alloc_page(ZONE_HIGHMEM);
	x = spawn_suspended("x", yield_holding_a_map, NULL, PRIO_TEST - 1);
	y = spawn_suspended("y", note, (void *)'y', PRIO_TEST - 1);
	preempt_disable();
	thread_resume(x);
	thread_resume(y);
	preempt_enable();
	thread_join(x);
	thread_join(y);
	assert_null(host_irq_at_dcache_flush);
	assert_string_equal(log_buf, "xyX");
	if (sim_violations(SIM_NR_VIOLATIONS))
		fail_msg("model: %s", sim_last_violation());
	__free_page(window_page);
}

static struct semaphore sem_woken;
static struct thread *picked;

/* In H's teardown: wake W into the queue next was taken from, then suspend next. */
static void irq_wake_then_suspend_next(unsigned long vaddr)
{
	(void)vaddr;
	irq_enter();
	up(&sem_woken);
	thread_suspend(picked);
	irq_exit();
}

static void woken_waiter(void *arg)
{
	(void)arg;
	down(&sem_woken);
	log_char('w');
}

static void high_blocker_suspending_next(void *arg)
{
	(void)arg;
	block_holding_a_map(&sem_high, irq_wake_then_suspend_next);
	log_char('H');
}

/*
 * H (prio +3) blocks holding a map, and the thread chosen to follow it is
 * n (+1), alone on its queue, so taken off it. An IRQ in the teardown
 * wakes W (+1, into that same queue) and suspends n. The suspension must
 * hold (n does not run until resumed), and W must run: it must not be
 * lost to an unlink of n through the node n had before it was picked.
 */
static void suspend_of_next_in_switch_out_holds(void **state)
{
	struct thread *w, *n, *high;

	(void)state;
	sim_clear_violations();
	log_reset();
	sema_init(&sem_woken, 0);
	sema_init(&sem_high, 0);
	window_page = alloc_page(ZONE_HIGHMEM);
	w = spawn("W", woken_waiter, NULL, PRIO_TEST + 1);     /* runs and blocks */
	n = picked = spawn_suspended("n", note, (void *)'n', PRIO_TEST + 1);
	high = spawn_suspended("H", high_blocker_suspending_next, NULL, PRIO_TEST + 3);
	preempt_disable();
	thread_resume(n);
	thread_resume(high);
	preempt_enable();               /* H runs, blocks: the IRQ lands in its switch-out */
	assert_null(host_irq_at_dcache_flush);                  /* the IRQ did land */
	if (strcmp(log_buf, "w") != 0)
		fail_msg("after the switch-out, the log is \"%s\", not \"w\": %s%s", log_buf,
			 strchr(log_buf, 'n') ? "the suspended thread ran; " : "",
			 strchr(log_buf, 'w') ? "" : "the woken thread W never ran");
	assert_int_equal(n->state, THREAD_SUSPENDED);
	thread_join(w);
	assert_true(thread_resume(n));
	thread_join(n);
	up(&sem_high);
	thread_join(high);
	assert_string_equal(log_buf, "wnH");
	if (sim_violations(SIM_NR_VIOLATIONS))
		fail_msg("model: %s", sim_last_violation());
	__free_page(window_page);
}

#endif

/* ---- freeing a page that kept a pkmap slot ---- */

static void free_kmapped(void *page)
{
	__free_page(page);
}

/*
 * kmap(); kunmap(); leaves the page its pkmap address (slot count 1) until
 * the next flush. Freeing it then is correct code: the slot goes at once,
 * and a line the pkmap alias dirtied must not reach the page's next owner
 * when some later flush writes the cache back.
 */
static void free_after_kmap_and_kunmap_releases_the_slot(void **state)
{
	struct page *p = alloc_page(ZONE_HIGHMEM), *q;
	phys_addr_t pa;
	uint32_t *v, *w;
	unsigned long nr;

	(void)state;
	assert_non_null(p);
	sim_clear_violations();
	v = kmap(p);
	nr = PKMAP_NR(v);
	v[0] = 0x5ca1ab1e;              /* a dirty line in the pkmap alias */
	kunmap(p);
	assert_int_equal(pkmap_slot_count(nr), 1);
	__free_page(p);
	assert_null(page_address(p));
	assert_int_equal(pkmap_slot_count(nr), 0);
	/* The next owner writes the page through another alias. */
	q = alloc_page(ZONE_HIGHMEM);
	assert_ptr_equal(q, p);         /* the free list is LIFO */
	pa = (phys_addr_t)page_to_pfn(q) << PAGE_SHIFT;
	w = kmap_local_page(q);
	w[0] = 0x0e1e0e1e;
	kunmap_local(w);
	kmap_flush_unused();            /* writes every cached line back */
	assert_int_equal(*(uint32_t *)sim_phys(pa), 0x0e1e0e1e);
	if (sim_violations(SIM_NR_VIOLATIONS))
		fail_msg("model: %s", sim_last_violation());
	/* A page somebody still holds is a bug, and says how many hold it. */
	v = kmap(q);
	kmap(q);
	{
		static char out[4096];

		assert_int_equal(sim_expect_halt(free_kmapped, q, out, sizeof(out)), 3);
		assert_non_null(strstr(out, "is still kmap()ed at"));
		assert_non_null(strstr(out, "by 2 holder(s)"));
	}
	kunmap(q);
	kunmap(q);
	__free_page(q);
	assert_int_equal(pkmap_slot_count(PKMAP_NR(v)), 0);
}

/* ---- an interrupt between a waiter's queueing and its switch ---- */

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
static void wake_in_wait_gap_keeps_the_cpu(void **state)
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
static void timeout_in_wait_gap_ends_the_wait(void **state)
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
static void urgent_wake_in_wait_gap_runs_at_the_switch(void **state)
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
static void irq_mapping_in_wait_gap_keeps_the_waiters_map(void **state)
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

#if CONFIG_DEBUG_HIGHMEM
/*
 * The scheduler's invariants, checked at every switch in debug builds:
 * each is broken on purpose below, the way a bug would, and the next
 * yield must panic naming the thread and the invariant. Each panic comes
 * in main, whose own yield finds the damage; the test then repairs it.
 */
static struct thread *victim;

static void expect_sched_panic(void (*fn)(void *), const char *const needles[])
{
	static char out[4096];

	assert_int_equal(sim_expect_halt(fn, NULL, out, sizeof(out)), 3);
	for (; *needles; needles++)
		if (!strstr(out, *needles))
			fail_msg("diagnostic lacks \"%s\":\n%s", *needles, out);
}

/*
 * The walk lets interrupts in between its steps. One lands while it stands
 * on B's node and moves B to another ready queue (a priority change): the
 * walk must see pcpu_hot.rq.gen change and start that queue again, not follow
 * B's links into the other queue's head (which it would take for a thread,
 * and go round that queue for ever).
 */
static struct thread *walker, *walk_b;
static int walk_unmasks, walk_target;
static bool walk_moved;

static int queue_len(int p)
{
	const struct list_head *pos;
	int n = 0;

	list_for_each(pos, &pcpu_hot.rq.queue[p])
		n++;
	return n;
}

static void irq_moves_the_walks_node(enum sim_irq_point where, unsigned long vaddr)
{
	(void)vaddr;
	if (where != SIM_IRQ_AT_UNMASK || current != walker || walk_moved)
		return;
	if (walk_unmasks == 0) {
		/* The walk's first step (queue 0): count the steps up to B, alone on its queue. */
		assert_int_equal(queue_len(walk_b->prio), 1);
		walk_target = 1;
		for (int p = 0; p < walk_b->prio; p++)
			walk_target += 1 + queue_len(p);
	}
	if (walk_unmasks++ != walk_target)
		return;
	walk_moved = true;
	irq_enter();
	sched_set_prio(walk_b, walk_b->prio - 1);
	irq_exit();
}

static void walk_moving_its_node_starts_the_queue_again(void **state)
{
	struct thread *a, *b;

	(void)state;
	log_reset();
	walk_unmasks = 0;
	walk_moved = false;
	a = spawn_suspended("A", note, (void *)'a', PRIO_TEST - 1);
	b = spawn_suspended("B", note, (void *)'b', PRIO_TEST - 2);
	preempt_disable();
	thread_resume(a);
	thread_resume(b);
	walker = a;
	walk_b = b;
	sim_irq_at = irq_moves_the_walks_node;
	preempt_enable();
	sleep_ticks(1);                 /* A runs, and walks the queues B is on */
	sim_irq_at = NULL;
	thread_join(a);
	thread_join(b);
	assert_true(walk_moved);
	assert_string_equal(log_buf, "ab");
}

/* A fast path that empties a queue by hand forgets its bitmap bit, or sets none. */
static void clear_bitmap_bit_then_yield(void *arg)
{
	unsigned long flags = arch_local_irq_save();

	(void)arg;
	pcpu_hot.rq.bitmap &= ~(1u << victim->prio);
	arch_local_irq_restore(flags);
	thread_yield();
}

static void queue_without_its_bitmap_bit_panics(void **state)
{
	unsigned long flags;

	(void)state;
	log_reset();
	victim = spawn("victim", note, (void *)'v', PRIO_TEST - 4);
	expect_sched_panic(clear_bitmap_bit_then_yield, (const char *const[]){
		"thread 'main'", "ready queue 12 is not empty but its bitmap bit is clear", NULL });
	flags = arch_local_irq_save();
	pcpu_hot.rq.bitmap |= 1u << victim->prio;
	arch_local_irq_restore(flags);
	thread_join(victim);
	assert_string_equal(log_buf, "v");
}

/* A second wake-up of a thread that is already running queues it. */
static void wake_running_thread_then_yield(void *arg)
{
	unsigned long flags = arch_local_irq_save();

	(void)arg;
	wake_up_thread(current);
	arch_local_irq_restore(flags);
	thread_yield();
}

static void running_thread_on_a_queue_panics(void **state)
{
	unsigned long flags;

	(void)state;
	expect_sched_panic(wake_running_thread_then_yield, (const char *const[]){
		"thread 'main'", "the running thread is on ready queue 16", NULL });
	flags = arch_local_irq_save();
	sched_dequeue(current);
	arch_local_irq_restore(flags);
}

/* A priority written behind the scheduler's back: nobody asked for a switch. */
static void raise_prio_directly_then_yield(void *arg)
{
	(void)arg;
	victim->prio = PRIO_TEST + 4;
	thread_yield();
}

static void urgent_ready_thread_without_need_resched_panics(void **state)
{
	(void)state;
	log_reset();
	victim = spawn("victim", note, (void *)'v', PRIO_TEST - 4);
	expect_sched_panic(raise_prio_directly_then_yield, (const char *const[]){
		"thread 'main'", "ready thread 'victim' (priority 20) is more urgent",
		"need_resched is not set", NULL });
	victim->prio = PRIO_TEST - 4;
	thread_join(victim);
	assert_string_equal(log_buf, "v");
}

/* A priority's queue written behind the scheduler's back: the yield would use the wrong one. */
static void move_ready_queue_then_yield(void *arg)
{
	(void)arg;
	victim->ready_queue = &pcpu_hot.rq.queue[victim->prio + 1];
	thread_yield();
}

static void ready_queue_not_of_its_priority_panics(void **state)
{
	(void)state;
	log_reset();
	victim = spawn("victim", note, (void *)'v', PRIO_TEST - 4);
	expect_sched_panic(move_ready_queue_then_yield, (const char *const[]){
		"thread 'main'", "thread 'victim' (priority 12) has the ready queue of priority 13", NULL });
	victim->ready_queue = &pcpu_hot.rq.queue[victim->prio];
	thread_join(victim);
	assert_string_equal(log_buf, "v");
}

/*
 * A ready thread unlinked through a stale node: its neighbours no longer
 * point at it (how a thread woken into a queue was lost when an IRQ
 * suspended the thread already picked to run).
 */
static void unlink_victim(void)
{
	struct list_head *n = &victim->node;

	n->prev->next = n->next;
	n->next->prev = n->prev;
	if (list_empty(&pcpu_hot.rq.queue[victim->prio]))
		pcpu_hot.rq.bitmap &= ~(1u << victim->prio);
}

static void unlink_ready_thread_then_yield(void *arg)
{
	unsigned long flags = arch_local_irq_save();

	(void)arg;
	unlink_victim();
	arch_local_irq_restore(flags);
	thread_yield();
}

static void ready_thread_unlinked_panics(void **state)
{
	unsigned long flags;

	(void)state;
	log_reset();
	victim = spawn("victim", note, (void *)'v', PRIO_TEST - 4);
	expect_sched_panic(unlink_ready_thread_then_yield, (const char *const[]){
		"thread 'main'", "ready thread 'victim' (priority 12) is on no ready queue", NULL });
	flags = arch_local_irq_save();
	enqueue_ready(victim, false);
	arch_local_irq_restore(flags);
	thread_join(victim);
	assert_string_equal(log_buf, "v");
}

/* A ready thread whose node sits, well linked, on a wait queue instead. */
static struct wait_queue stray_wq = WAIT_QUEUE_INIT(stray_wq);

static void ready_thread_to_wait_queue_then_yield(void *arg)
{
	unsigned long flags = arch_local_irq_save();

	(void)arg;
	sched_dequeue(victim);
	list_add_tail(&victim->node, &stray_wq.waiters);
	arch_local_irq_restore(flags);
	thread_yield();
}

static void ready_thread_on_a_wait_queue_panics(void **state)
{
	unsigned long flags;

	(void)state;
	log_reset();
	victim = spawn("victim", note, (void *)'v', PRIO_TEST - 4);
	expect_sched_panic(ready_thread_to_wait_queue_then_yield, (const char *const[]){
		"thread 'main'", "ready thread 'victim' (priority 12) is on no ready queue", NULL });
	flags = arch_local_irq_save();
	list_del_init(&victim->node);
	enqueue_ready(victim, false);
	arch_local_irq_restore(flags);
	thread_join(victim);
	assert_string_equal(log_buf, "v");
}

/* A queued thread whose state says it waits. */
static void block_queued_thread_then_yield(void *arg)
{
	(void)arg;
	victim->state = THREAD_BLOCKED;
	thread_yield();
}

static void queued_thread_not_ready_panics(void **state)
{
	(void)state;
	log_reset();
	victim = spawn("victim", note, (void *)'v', PRIO_TEST - 4);
	expect_sched_panic(block_queued_thread_then_yield, (const char *const[]){
		"thread 'main'", "thread 'victim' is on ready queue 12 but blocked", NULL });
	victim->state = THREAD_READY;
	thread_join(victim);
	assert_string_equal(log_buf, "v");
}

/* A blocked thread taken off its wait queue through a stale node: no wake-up can reach it. */
static void stray_waiter(void *arg)
{
	unsigned long flags = arch_local_irq_save();

	(void)arg;
	sleep_on(&stray_wq);
	arch_local_irq_restore(flags);
	log_char('v');
}

static void unlink_blocked_thread_then_yield(void *arg)
{
	unsigned long flags = arch_local_irq_save();
	struct list_head *n = &victim->node;

	(void)arg;
	n->prev->next = n->next;
	n->next->prev = n->prev;
	arch_local_irq_restore(flags);
	thread_yield();
}

static void blocked_thread_unlinked_panics(void **state)
{
	unsigned long flags;

	(void)state;
	log_reset();
	victim = spawn("victim", stray_waiter, NULL, PRIO_TEST + 4);   /* runs and blocks */
	expect_sched_panic(unlink_blocked_thread_then_yield, (const char *const[]){
		"thread 'main'", "blocked thread 'victim' (priority 20) is on no wait queue", NULL });
	flags = arch_local_irq_save();
	list_add_tail(&victim->node, &stray_wq.waiters);
	arch_local_irq_restore(flags);
	wake_up(&stray_wq);
	thread_join(victim);
	assert_string_equal(log_buf, "v");
}

/* The running thread in a state that would not have let it be picked. */
static void check_while_suspended(void *arg)
{
	(void)arg;
	arch_local_irq_disable();
	current->state = THREAD_SUSPENDED;
	sched_check_invariants();
}

static void running_thread_not_ready_panics(void **state)
{
	(void)state;
	expect_sched_panic(check_while_suspended, (const char *const[]){
		"thread 'main'", "it runs, but is suspended", NULL });
	current->state = THREAD_READY;
}

/* An interrupt handler that leaves a preempt_disable() behind, inside a switch. */
static void leak_preempt_count(unsigned long vaddr)
{
	(void)vaddr;
	__preempt_count++;
}

static void yield_with_a_leaking_irq(void *arg)
{
	(void)arg;
	host_irq_at_dcache_flush = leak_preempt_count;
	thread_yield();
}

static void preempt_count_across_a_switch_panics(void **state)
{
	struct page *pg = alloc_page(ZONE_HIGHMEM);
	unsigned long flags;
	void *p;

	(void)state;
	log_reset();
	p = kmap_local_page(pg);        /* so that the switch-out has a window */
	victim = spawn("victim", note, (void *)'v', PRIO_TEST);
	expect_sched_panic(yield_with_a_leaking_irq, (const char *const[]){
		"before a switch, thread 'main'", "preempt count 0x1, not zero", NULL });
	assert_null(host_irq_at_dcache_flush);
	/* The yield stopped between the pick and the register switch: undo it. */
	flags = arch_local_irq_save();
	sched_dequeue(current);
	wake_up_thread(victim);
	if (kmap_sched_in_pending(current))
		kmap_local_sched_in(current);
	arch_local_irq_restore(flags);
	kunmap_local(p);
	thread_join(victim);
	assert_string_equal(log_buf, "v");
	__free_page(pg);
}
#endif

static int failures = -1;
static volatile int tests_done;

static void test_main(void *arg)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(higher_priority_preempts_creator),
		cmocka_unit_test(yield_with_pagefaults_disabled_lets_the_peer_run),
		cmocka_unit_test(trace_records_every_threads_switches_until_stopped),
		cmocka_unit_test(equal_priorities_share_by_time_slice),
		cmocka_unit_test(time_slice_zero_keeps_the_cpu_until_done),
		cmocka_unit_test(time_slice_length_is_each_threads_own),
		cmocka_unit_test(preempted_thread_resumes_before_its_peers),
		cmocka_unit_test(sleepers_wake_in_tick_order),
		cmocka_unit_test(preempt_enable_runs_the_deferred_switch),
		cmocka_unit_test(mutex_goes_to_most_urgent_waiter),
		cmocka_unit_test(mutex_lends_priority_to_its_owner),
		cmocka_unit_test(switches_move_kmaps_coherently),
		cmocka_unit_test(new_threads_start_without_maps),
		cmocka_unit_test(wakeup_during_kmap_restore_runs_at_once),
		cmocka_unit_test(lost_races_in_a_row_do_not_grow_the_stack),
#if !CONFIG_KMAP_DEFER
		cmocka_unit_test(wakeup_in_switch_out_outranking_next_runs_first),
		cmocka_unit_test(wakeup_of_prev_in_switch_out_keeps_it_running),
		cmocka_unit_test(tick_in_switch_out_does_not_undo_a_yield),
		cmocka_unit_test(suspend_of_next_in_switch_out_holds),
#endif
		cmocka_unit_test(free_after_kmap_and_kunmap_releases_the_slot),
		cmocka_unit_test(wake_in_wait_gap_keeps_the_cpu),
		cmocka_unit_test(timeout_in_wait_gap_ends_the_wait),
		cmocka_unit_test(urgent_wake_in_wait_gap_runs_at_the_switch),
		cmocka_unit_test(irq_mapping_in_wait_gap_keeps_the_waiters_map),
#if CONFIG_DEBUG_HIGHMEM
		cmocka_unit_test(walk_moving_its_node_starts_the_queue_again),
		cmocka_unit_test(queue_without_its_bitmap_bit_panics),
		cmocka_unit_test(running_thread_on_a_queue_panics),
		cmocka_unit_test(urgent_ready_thread_without_need_resched_panics),
		cmocka_unit_test(ready_queue_not_of_its_priority_panics),
		cmocka_unit_test(ready_thread_unlinked_panics),
		cmocka_unit_test(ready_thread_on_a_wait_queue_panics),
		cmocka_unit_test(queued_thread_not_ready_panics),
		cmocka_unit_test(blocked_thread_unlinked_panics),
		cmocka_unit_test(running_thread_not_ready_panics),
		cmocka_unit_test(preempt_count_across_a_switch_panics),
#endif
	};

	(void)arg;
	sim_install_fault_handler();
	failures = cmocka_run_group_tests_name("sched_real", tests, NULL, NULL);
	tests_done = 1;
	for (;;)
		sleep_ticks(1000);      /* parked; the idle loop ends the process */
}

int main(void)
{
	sim_reset();
	mm_init(0x00100000u);
	sched_init();
	if (!thread_create("main", test_main, NULL, PRIO_TEST, HOST_STACK))
		return 2;
	sched_begin();
	/* Idle: time passes only while nothing else can run, as on target. */
	while (!tests_done)
		host_tick();
	return failures;
}
