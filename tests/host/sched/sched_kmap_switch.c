/*
 * The switch path against the VIVT model: local maps moved at every switch,
 * wake-ups landing inside the kmap restore and teardown, lost races.
 * Part of test_sched_real (tests/host/sched/sched_tests.h).
 */
#include "sched_tests.h"

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

void switches_move_kmaps_coherently(void **state)
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

void new_threads_start_without_maps(void **state)
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

void wakeup_during_kmap_restore_runs_at_once(void **state)
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

void lost_races_in_a_row_do_not_grow_the_stack(void **state)
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
void wakeup_in_switch_out_outranking_next_runs_first(void **state)
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
void wakeup_of_prev_in_switch_out_keeps_it_running(void **state)
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
void tick_in_switch_out_does_not_undo_a_yield(void **state)
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
void suspend_of_next_in_switch_out_holds(void **state)
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
