/*
 * Fixed-priority preemptive scheduler, round-robin within a priority.
 *
 * The running thread is not on a ready queue. Switches happen only with
 * interrupts off and preempt_count zero: from schedule() callers (yield,
 * sleep, wait queues), from preempt_enable() and from irq_exit().
 *
 * Local kmaps: mm may have work when a thread leaves the CPU and when one
 * gets it (firmware/mm/kmap_scheme.h); the scheduler asks through
 * kmap_sched_out_pending()/kmap_sched_in_pending() and calls
 * kmap_local_sched_out()/kmap_local_sched_in() around the register switch,
 * as Linux's prepare_task_switch() and finish_task_switch() do. That work
 * runs with interrupts on (preemption off), in a switch window: an IRQ
 * that maps a page meanwhile pushes above the current thread's unchanged
 * kmap index, onto a slot that is empty, and pops before returning.
 */
#include <string.h>
#include <lokal/sched.h>
#include <lokal/sched-internal.h>
#include <lokal/thread.h>
#include <lokal/preempt.h>
#include <lokal/platform.h>
#include <lokal/highmem-internal.h>
#include <lokal/trace.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>
#include <asm/switch_to.h>

static struct list_head ready[NR_PRIO];
static uint32_t ready_bitmap;           /* bit p set: ready[p] not empty */
static bool running;
static struct sched_stats stats;
/*
 * Interrupts are on inside a switch's mm work: SWITCH_WINDOW_OUT while the
 * outgoing thread's is done (current is still that thread, but it has
 * given up the CPU), SWITCH_WINDOW_IN while the incoming one's is.
 */
enum { SWITCH_WINDOW_NONE, SWITCH_WINDOW_OUT, SWITCH_WINDOW_IN };
static volatile unsigned char switch_window;

static struct thread boot_thread = {
	.name = "boot",
	.prio = PRIO_IDLE,
	.state = THREAD_READY,
	.tnode = LIST_HEAD_INIT(boot_thread.tnode),
};
struct thread *current = &boot_thread;
LIST_HEAD_DECL(all_threads);


static inline void enqueue_ready(struct thread *t, bool at_head)
{
	t->state = THREAD_READY;
	if (at_head)
		list_add(&t->node, &ready[t->prio]);
	else
		list_add_tail(&t->node, &ready[t->prio]);
	ready_bitmap |= 1u << t->prio;
}

static inline struct thread *dequeue_highest(void)
{
	int prio = 31 - __builtin_clz(ready_bitmap);
	struct thread *t = list_first_entry(&ready[prio], struct thread, node);

	list_del_init(&t->node);
	if (list_empty(&ready[prio]))
		ready_bitmap &= ~(1u << prio);
	return t;
}

static int highest_ready_prio(void)
{
	return ready_bitmap ? 31 - __builtin_clz(ready_bitmap) : -1;
}

bool scheduler_running(void)
{
	return running;
}

/* Take t, ready but not running, off its ready queue (IRQs off). */
void sched_dequeue(struct thread *t)
{
	list_del_init(&t->node);
	if (list_empty(&ready[t->prio]))
		ready_bitmap &= ~(1u << t->prio);
}

void sched_set_prio(struct thread *t, int prio)
{
	if (t->prio == prio)
		return;
	if (t->state == THREAD_READY && t != current) {
		sched_dequeue(t);
		t->prio = prio;
		enqueue_ready(t, false);
	} else {
		t->prio = prio;
	}
	if (t != current && t->state == THREAD_READY && prio > current->prio)
		set_need_resched(RESCHED_WAKE);
	if (t == current && highest_ready_prio() > prio)
		set_need_resched(RESCHED_WAKE);
}

/*
 * Make t runnable (IRQs off); ask for a switch if it outranks the running
 * thread. A suspended thread's wait ends all the same, but it is parked
 * until thread_resume().
 */
void wake_up_thread(struct thread *t)
{
	if (__builtin_expect(t->suspended, 0)) {
		INIT_LIST_HEAD(&t->node);
		t->state = THREAD_SUSPENDED;
		return;
	}
	enqueue_ready(t, false);
	if (t->prio > current->prio)
		set_need_resched(RESCHED_WAKE);
}

/*
 * Second half of a switch, run by the thread switched to (me). Returns
 * whether a more urgent thread became ready meanwhile: only possible when
 * interrupts were on, inside the kmap window, so the common switch without
 * maps answers a constant false and its caller's re-check folds away.
 * Maps to restore and an active trace share one test: the switch that
 * needs neither pays for one load more than the marker.
 */
static inline __attribute__((always_inline)) bool finish_switch(struct thread *me)
{
	unsigned int restored = 0, work = kmap_sched_in_pending(me);
	bool resched = false;

	if (__builtin_expect((work | __trace_active) == 0, 1)) {
		switch_marker_fast(0);
		return false;
	}
	if (work != 0) {
		restored = (unsigned int)me->kmap_ctrl.idx;
		stats.kmap_switches++;
		__preempt_count++;      /* an IRQ in the window must not switch */
		switch_window = SWITCH_WINDOW_IN;
		arch_local_irq_enable();
		kmap_local_sched_in(me);
		arch_local_irq_disable();
		switch_window = SWITCH_WINDOW_NONE;
		__preempt_count--;
		me->kmap_restores++;
		stats.kmaps_restored += restored;
		resched = need_resched();
	}
	switch_marker_fast(0);
	trace_switch_end(me, restored);
	return resched;
}

/*
 * Take the outgoing thread's (current's) local maps down, interrupts on, and return the thread to
 * switch to. An interrupt meanwhile may have readied a thread that
 * outranks next without outranking prev (so it did not ask for a switch),
 * or prev itself: decide again, or that thread would wait until next
 * blocks. May return prev, whose switch is then abandoned.
 */
static __attribute__((noinline)) struct thread *kmap_switch_out(struct thread *prev,
								     struct thread *next)
{
	__preempt_count++;              /* an IRQ in the window must not switch */
	switch_window = SWITCH_WINDOW_OUT;
	arch_local_irq_enable();
	kmap_local_sched_out(prev);
	arch_local_irq_disable();
	switch_window = SWITCH_WINDOW_NONE;
	__preempt_count--;
	if (highest_ready_prio() > next->prio) {
		enqueue_ready(next, true);      /* back where it was taken from */
		next = dequeue_highest();
		clear_need_resched();           /* this pick saw every wake-up so far */
	}
	return next;
}

/* What context_switch() reports back to prev: 0, or either or both bits. */
enum {
	SWITCH_ABANDONED = 1,   /* prev's kmap window readied prev itself: it never left */
	SWITCH_RESCHED = 2,     /* a wake-up in a kmap window wants the CPU: decide again */
};

/*
 * Interrupts stay off throughout, except inside the kmap windows, which
 * raise the preempt count themselves: a switch between two threads
 * without maps pays for neither. Per-thread switch counts are the only
 * statistic on this path; the totals are summed when someone asks.
 */
static inline __attribute__((always_inline)) unsigned int
context_switch(struct thread *prev, struct thread *next)
{
	switch_marker_fast(1);
	if (__builtin_expect((kmap_sched_out_pending(prev) | __trace_active) != 0, 0)) {
		trace_switch_start();
		if (kmap_sched_out_pending(prev)) {
			next = kmap_switch_out(prev, next);
			if (next == prev)
				return SWITCH_ABANDONED | (finish_switch(prev) ? SWITCH_RESCHED : 0);
			if (!kmap_sched_in_pending(next))
				stats.kmap_switches++;  /* else counted at next's switch-in */
		}
	}
	next->switches_in++;
	current = next;
	__switch_to(&prev->saved_sp, next->saved_sp);
	/* Back in prev, switched in by some later context_switch(). */
	return finish_switch(prev) ? SWITCH_RESCHED : 0;
}

/*
 * Pick the best ready thread and run it. IRQs off. The caller has already
 * set current->state: READY means "still runnable" and it is requeued.
 * Inlined into the hot callers (yield, blocking, IRQ exit), where
 * "preempted" is a constant and its tests fold away.
 */
static inline __attribute__((always_inline)) void do_schedule(bool preempted)
{
	struct thread *prev = current, *next;
	unsigned int r;

	do {
		bool rotate = need_resched() & RESCHED_ROTATE;

		clear_need_resched();
		if (prev->state == THREAD_READY) {
			/* A preempted thread keeps its place unless its slice ran out. */
			if (preempted && prev->prio >= highest_ready_prio() && !rotate)
				return;
			enqueue_ready(prev, preempted && !rotate);
		}
		next = dequeue_highest();
		if (next == prev)
			return;
		r = context_switch(prev, next);
		if (!(r & SWITCH_ABANDONED) && preempted)
			stats.preemptions++;
		/*
		 * Back in prev. Interrupts were on during the kmap steps of the
		 * switch that resumed us; if one woke a more urgent thread it
		 * could not preempt then, so decide again now rather than at the
		 * next tick (a loop, not a recursion: each lost race would cost a
		 * frame on a small thread stack).
		 */
		preempted = true;
	} while (__builtin_expect(r & SWITCH_RESCHED, 0));
}

/* The same, out of line, for the callers off the hot paths. */
static __attribute__((noinline)) void __schedule(bool preempted)
{
	do_schedule(preempted);
}

void schedule(void)
{
	BUG_ON(!arch_irqs_disabled());
	if (preempt_count())
		panic("schedule() with preempt_count 0x%x in thread '%s'",
		      preempt_count(), current->name);
	do_schedule(false);
}

/*
 * The preemption of current by a woken thread, at irq_exit() or at the
 * final preempt_enable(), in the common case: the woken thread is the only
 * one at the highest ready priority, and the preempted thread keeps its
 * place at the head of its own queue (its slice is not over).
 * One bitmap scan and one bitmap store, where the general path scans,
 * requeues, scans again and updates the bitmap twice.
 */
static inline __attribute__((always_inline)) void preempt_current(resched_t resched)
{
	struct thread *prev = current, *next;
	uint32_t bitmap = ready_bitmap;
	struct list_head *q, *pq;
	unsigned int r;
	int hp;

	if (__builtin_expect(resched & RESCHED_ROTATE, 0))
		goto general;
	hp = 31 - __builtin_clz(bitmap | 1);    /* nothing ready: 0, not above prev */
	if (hp <= prev->prio)
		goto general;
	q = &ready[hp];
	next = list_entry(q->next, struct thread, node);
	if (__builtin_expect(next->node.next != q, 0))
		goto general;
	INIT_LIST_HEAD(q);
	pq = &ready[prev->prio];
	list_add(&prev->node, pq);
	ready_bitmap = (bitmap & ~(1u << hp)) | (1u << prev->prio);
	clear_need_resched();
	r = context_switch(prev, next);
	if (!(r & SWITCH_ABANDONED))
		stats.preemptions++;
	if (__builtin_expect(r & SWITCH_RESCHED, 0))    /* see do_schedule()'s loop */
		__schedule(true);
	return;
general:
	__schedule(true);
}

/*
 * A wake-up that came while preemption was off (inside a kmap_local map or
 * unmap, say) is served at the final preempt_enable() by the same short
 * path as at an IRQ's exit: it is the same preemption, a moment later.
 */
void preempt_schedule(void)
{
	unsigned long flags;
	resched_t resched;

	/* A caller with interrupts off is in a critical section: not now. */
	if (!running || in_irq() || arch_irqs_disabled())
		return;
	flags = arch_local_irq_save();
	resched = need_resched();
	if (resched && preempt_count() == 0)
		preempt_current(resched);
	arch_local_irq_restore(flags);
}

/*
 * An IRQ taken inside a switch's kmap window (which raises the preempt
 * count) is counted here, off the path of the IRQ that may switch. Until
 * sched_begin() the boot thread's preempt count is 1, so "count zero"
 * also means "the scheduler runs".
 */
void irq_exit(void)
{
	unsigned int count = __preempt_count - HARDIRQ_OFFSET;
	resched_t resched;

	__preempt_count = count;
	if (__builtin_expect(count != 0, 0)) {
		if (switch_window)
			stats.irqs_in_kmap_switch++;
		return;
	}
	resched = need_resched();
	if (resched)
		preempt_current(resched);
}

/*
 * The common yield takes a shortcut when nothing is unusual: not atomic,
 * page faults on (so might_sleep() has nothing to say), no switch pending
 * (so nothing outranks prev: every wake-up of a more urgent thread sets
 * need_resched), and exactly one peer waiting at prev's priority. prev
 * then simply takes that peer's place in the queue: four stores, where the
 * general path would enqueue, dequeue and update the bitmap twice. The
 * running thread is on no queue and nothing reads its node until it is
 * queued again, so the peer's node is left as it is. need_resched is read
 * with interrupts off: a wake-up just before must not be passed over.
 */
void thread_yield(void)
{
	struct thread *prev = current;
	struct list_head *q, *peer;
	uint64_t pending;
	unsigned long flags;

	flags = arch_local_irq_save();
	pending = __preempt.both;
	if (__builtin_expect(((uint32_t)pending | (uint32_t)(pending >> 32) |
			      prev->pagefault_disabled) != 0, 0))
		goto general;
	q = &ready[prev->prio];
	peer = q->next;
	if (__builtin_expect(peer == q || peer->next != q, 0))
		goto general;
	q->next = q->prev = &prev->node;
	prev->node.next = prev->node.prev = q;
	if (context_switch(prev, list_entry(peer, struct thread, node)) & SWITCH_RESCHED)
		__schedule(true);
	arch_local_irq_restore(flags);
	return;
general:
	might_sleep();
	__schedule(false);      /* not preempted: back of the queue */
	arch_local_irq_restore(flags);
}

/* Called by the tick IRQ: time slices (sleepers are woken by timer.c). */
void sched_tick_slice(void)
{
	struct thread *t = current;

	/*
	 * In a switch-out, current has already given up the CPU (a yielding
	 * thread is even queued behind its peers): charging its slice would
	 * count it as its own peer and preempt the thread it yielded to.
	 */
	if (t->prio == PRIO_IDLE || switch_window == SWITCH_WINDOW_OUT || --t->slice > 0)
		return;
	t->slice = SCHED_SLICE_TICKS;
	if (ready_bitmap & (1u << t->prio)) {
		set_need_resched(RESCHED_ROTATE);
	}
}

/* First code a new thread runs (from arch's first-switch frame). */
void sched_thread_entry(void)
{
	struct thread *me = current;

	finish_switch(me);
	if (need_resched())       /* woken during our first switch-in, see __schedule() */
		__schedule(true);
	arch_local_irq_enable();
	me->entry(me->arg);
	thread_exit(0);
}

void sched_get_stats(struct sched_stats *st)
{
	unsigned long flags = arch_local_irq_save();
	struct list_head *pos;

	*st = stats;
	list_for_each(pos, &all_threads)
		st->switches += list_entry(pos, struct thread, all)->switches_in;
	arch_local_irq_restore(flags);
}

void sched_forget_thread(struct thread *t)
{
	stats.switches += t->switches_in;
	kmap_local_forget(t);   /* mm may still name it as the owner of the slots */
}

void sched_init(void)
{
	for (int i = 0; i < NR_PRIO; i++)
		INIT_LIST_HEAD(&ready[i]);
	INIT_LIST_HEAD(&boot_thread.node);
	INIT_LIST_HEAD(&boot_thread.held_mutexes);
	list_add_tail(&boot_thread.all, &all_threads);
}

/*
 * Let threads run: the caller becomes the idle thread (priority 0) and
 * this returns the first time it is scheduled again.
 */
void sched_begin(void)
{
	strcpy(boot_thread.name, "idle");
	arch_local_irq_disable();
	running = true;
	__preempt_count = 0;    /* the boot thread was atomic until now */
	tick_start(CONFIG_HZ);
	__schedule(false);      /* boot thread stays READY at prio 0 */
	arch_local_irq_enable();
}

void sched_start(void)
{
	sched_begin();
	for (;;) {
		arch_cpu_idle();
		if (need_resched())
			thread_yield();
	}
}
