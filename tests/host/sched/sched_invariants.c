/*
 * The debug build's invariants as code (sched_check.c): each broken
 * invariant is planted and the panic that names it is expected.
 * Part of test_sched_real (tests/host/sched/sched_tests.h).
 */
#include "sched_tests.h"

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
 * The common case: a victim at PRIO_TEST - 4 that logs 'v' is queued,
 * plant breaks an invariant and yields, which must panic with needles;
 * repair (IRQs off) undoes the damage, and the victim then runs to its end.
 */
static void plant_beside_a_victim(void (*plant)(void *), const char *const needles[],
				  void (*repair)(void))
{
	unsigned long flags;

	log_reset();
	victim = spawn("victim", note, (void *)'v', PRIO_TEST - 4);
	expect_sched_panic(plant, needles);
	flags = arch_local_irq_save();
	repair();
	arch_local_irq_restore(flags);
	thread_join(victim);
	assert_string_equal(log_buf, "v");
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

void walk_moving_its_node_starts_the_queue_again(void **state)
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

static void set_bitmap_bit(void)
{
	pcpu_hot.rq.bitmap |= 1u << victim->prio;
}

void queue_without_its_bitmap_bit_panics(void **state)
{
	(void)state;
	plant_beside_a_victim(clear_bitmap_bit_then_yield, (const char *const[]){
		"thread 'main'", "ready queue 12 is not empty but its bitmap bit is clear", NULL },
		set_bitmap_bit);
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

void running_thread_on_a_queue_panics(void **state)
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

static void restore_prio(void)
{
	victim->prio = PRIO_TEST - 4;
}

void urgent_ready_thread_without_need_resched_panics(void **state)
{
	(void)state;
	plant_beside_a_victim(raise_prio_directly_then_yield, (const char *const[]){
		"thread 'main'", "ready thread 'victim' (priority 20) is more urgent",
		"need_resched is not set", NULL }, restore_prio);
}

/* A priority's queue written behind the scheduler's back: the yield would use the wrong one. */
static void move_ready_queue_then_yield(void *arg)
{
	(void)arg;
	victim->ready_queue = &pcpu_hot.rq.queue[victim->prio + 1];
	thread_yield();
}

static void restore_ready_queue(void)
{
	victim->ready_queue = &pcpu_hot.rq.queue[victim->prio];
}

void ready_queue_not_of_its_priority_panics(void **state)
{
	(void)state;
	plant_beside_a_victim(move_ready_queue_then_yield, (const char *const[]){
		"thread 'main'", "thread 'victim' (priority 12) has the ready queue of priority 13", NULL },
		restore_ready_queue);
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

static void requeue_victim(void)
{
	enqueue_ready(victim, false);
}

void ready_thread_unlinked_panics(void **state)
{
	(void)state;
	plant_beside_a_victim(unlink_ready_thread_then_yield, (const char *const[]){
		"thread 'main'", "ready thread 'victim' (priority 12) is on no ready queue", NULL },
		requeue_victim);
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

static void move_victim_back(void)
{
	list_del_init(&victim->node);
	enqueue_ready(victim, false);
}

void ready_thread_on_a_wait_queue_panics(void **state)
{
	(void)state;
	plant_beside_a_victim(ready_thread_to_wait_queue_then_yield, (const char *const[]){
		"thread 'main'", "ready thread 'victim' (priority 12) is on no ready queue", NULL },
		move_victim_back);
}

/* A queued thread whose state says it waits. */
static void block_queued_thread_then_yield(void *arg)
{
	(void)arg;
	victim->state = THREAD_BLOCKED;
	thread_yield();
}

static void make_victim_ready(void)
{
	victim->state = THREAD_READY;
}

void queued_thread_not_ready_panics(void **state)
{
	(void)state;
	plant_beside_a_victim(block_queued_thread_then_yield, (const char *const[]){
		"thread 'main'", "thread 'victim' is on ready queue 12 but blocked", NULL },
		make_victim_ready);
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

void blocked_thread_unlinked_panics(void **state)
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

void running_thread_not_ready_panics(void **state)
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

void preempt_count_across_a_switch_panics(void **state)
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
