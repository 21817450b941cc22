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
#include <stddef.h>
#include <string.h>
#include <generated/config.h>
#include <lokal/sched.h>
#include <lokal/sched-internal.h>
#include <lokal/thread.h>
#include <lokal/preempt.h>
#include <lokal/platform.h>
#include <lokal/highmem-internal.h>
#include <lokal/trace.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>
#include <asm/bitops.h>
#include <asm/switch_to.h>
#include "runqueue.h"

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
	.ready_queue = &pcpu_hot.rq.queue[PRIO_IDLE],
	.state = THREAD_READY,
	.tnode = LIST_HEAD_INIT(boot_thread.tnode),
};
/* As in Linux, the boot thread runs atomic (count 1) until the scheduler starts. */
struct cpu_state pcpu_hot = {
	.preempt = { .count = 1 },
	.curr = &boot_thread,
};
const unsigned int pcpu_hot_offsets[2] __attribute__((used)) = {
	offsetof(struct cpu_state, preempt),
	offsetof(struct cpu_state, curr),
};
LIST_HEAD_DECL(all_threads);

/*
 * The first thread of ready queue prio, taken off it to run. The running
 * thread's node is read by nobody until it is queued again (that is an
 * invariant checked in debug builds), so it is not reinitialized.
 */
static inline struct thread *dequeue_first(int prio)
{
	struct list_head *q = &runqueue.queue[prio];
	struct list_head *first = q->next, *second = first->next;

	rq_changed();
	q->next = second;       /* __list_del_first(), whose second says whether q is now empty */
	second->prev = q;
	if (second == q)
		runqueue.bitmap &= ~(1u << prio);
	return list_entry(first, struct thread, node);
}

/*
 * The most urgent priority with a ready thread; -1 when none is, which
 * only a comparison sees: a pick happens with the idle thread ready.
 */
static inline int highest_ready_prio(void)
{
	return 31 - (int)arch_clz(runqueue.bitmap);
}

static inline struct thread *dequeue_highest(void)
{
	return dequeue_first(highest_ready_prio());
}

bool scheduler_running(void)
{
	return running;
}

/* Take t, ready but not running, off its ready queue (IRQs off). */
void sched_dequeue(struct thread *t)
{
	rq_changed();
	list_del_init(&t->node);
	if (list_empty(&runqueue.queue[t->prio]))
		runqueue.bitmap &= ~(1u << t->prio);
}

void sched_set_prio(struct thread *t, int prio)
{
	if (t->prio == prio)
		return;
	if (t->state == THREAD_READY && t != current) {
		sched_dequeue(t);
		sched_init_prio(t, prio);
		enqueue_ready(t, false);
	} else {
		sched_init_prio(t, prio);
	}
	if (t != current && t->state == THREAD_READY && prio > current->prio)
		set_need_resched(RESCHED_WAKE);
	if (t == current && highest_ready_prio() > prio)
		set_need_resched(RESCHED_WAKE);
}

/*
 * While a switch's kmap window is open, the priority a ready thread must
 * exceed to cut the window's work: the incoming thread's in a switch-in,
 * in a switch-out the one switched to (back on its queue meanwhile).
 * Above every priority while no window is open: one compare answers both.
 */
#define NO_SWITCH_CUT   (PRIO_MAX + 1)
static int switch_cut_prio = NO_SWITCH_CUT;

/*
 * The raised preempt count of a switch's kmap window drops to zero here
 * with interrupts off, so every wake-up so far is seen: a thread woken
 * meanwhile waits at most for one of mm's steps, not for the whole walk
 * or teardown (preempt_off_kernel_max_insns). In a switch-in, urgent
 * means more urgent than the thread switching in; in a switch-out, more
 * urgent than the one the switch was going to.
 */
bool kmap_switch_point(void)
{
	unsigned long flags;
	unsigned int count;
	bool urgent;

	if (switch_cut_prio == NO_SWITCH_CUT)
		return false;
	flags = arch_local_irq_save_svc();     /* a thread's switch: SVC mode */
	count = __preempt_count;
	__preempt_count = count - 1;
	urgent = highest_ready_prio() > switch_cut_prio;
	__preempt_count = count;
	arch_local_irq_restore(flags);
	if (__builtin_expect(urgent, 0))
		stats.kmap_switches_cut++;
	return urgent;
}

/*
 * A switch's kmap window: mm's work on t with interrupts on, the preempt
 * count raised (an IRQ in the window must not switch) and the window's
 * kind and cut priority set for kmap_switch_point() and __irq_exit().
 */
static inline __attribute__((always_inline)) void in_switch_window(unsigned char window, int cut_prio,
								    void (*work)(struct thread *),
								    struct thread *t)
{
	switch_cut_prio = cut_prio;
	__preempt_count++;
	switch_window = window;
	arch_local_irq_enable();
	work(t);
	arch_local_irq_disable();
	switch_cut_prio = NO_SWITCH_CUT;
	switch_window = SWITCH_WINDOW_NONE;
	__preempt_count--;
}

/* finish_switch()'s work: the incoming thread's maps, the trace edge. */
static __attribute__((noinline)) bool finish_switch_work(struct thread *me, unsigned int work)
{
	unsigned int restored = 0;
	bool resched = false;

	if (work != 0) {
		restored = (unsigned int)me->kmap_ctrl.idx;
		stats.kmap_switches++;
		in_switch_window(SWITCH_WINDOW_IN, me->prio, kmap_local_sched_in, me);
		me->kmap_restores++;
		stats.kmaps_restored += restored;
		resched = need_resched() != 0;
	}
	switch_marker_fast(0);
	trace_switch_end(me, restored);
	return resched;
}

/*
 * Second half of a switch, run by the thread switched to (me). Returns
 * whether a more urgent thread became ready meanwhile: only possible when
 * interrupts were on, inside the kmap window, so the common switch without
 * maps answers a constant false and its caller's re-check folds away.
 * Maps to restore and an active trace share one test, of me's
 * switch_work.in: the switch that needs neither pays one load and a
 * branch besides the marker, whose base (marker) me kept in a register
 * across the switch. The work is out of line, so that the switch without
 * it keeps fewer values live across the register switch (two
 * instructions fewer per yield).
 */
static inline __attribute__((always_inline)) bool finish_switch(struct thread *me, uintptr_t marker)
{
	if (__builtin_expect(me->switch_work.in == 0, 1)) {
		switch_marker_at(marker, 0);
		return false;
	}
	return finish_switch_work(me, kmap_sched_in_pending(me));
}

/*
 * Take the outgoing thread's (current's) local maps down, interrupts on, and return the thread to
 * switch to. next goes back where it was taken from first: an interrupt
 * meanwhile finds it an ordinary ready thread, which it may suspend (it
 * must not run then) or move to another priority, and a thread woken into
 * its queue is linked next to a node that is really there. An interrupt
 * may also have readied a thread that outranks next without outranking
 * prev (so it did not ask for a switch), or prev itself: so the pick is
 * made again, or that thread would wait until next blocks. May return
 * prev, whose switch is then abandoned.
 */
static __attribute__((noinline)) struct thread *kmap_switch_out(struct thread *prev,
								     struct thread *next)
{
	enqueue_ready(next, true);
	in_switch_window(SWITCH_WINDOW_OUT, next->prio, kmap_local_sched_out, prev);
	next = dequeue_highest();
	clear_need_resched();           /* this pick saw every wake-up so far */
	return next;
}

/*
 * The switch-out's work, out of line like finish_switch_work(): the trace
 * edge, and the outgoing thread's maps. Returns the thread to switch to,
 * prev itself if its switch is abandoned.
 */
static __attribute__((noinline)) struct thread *switch_out_work(struct thread *prev,
								    struct thread *next)
{
	trace_switch_start();
	if (kmap_sched_out_pending(prev)) {
		next = kmap_switch_out(prev, next);
		if (next != prev && !kmap_sched_in_pending(next))
			stats.kmap_switches++;  /* else counted at next's switch-in */
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
context_switch(struct thread *prev, struct thread *next, uint32_t work)
{
	uintptr_t marker = switch_marker_base();

	/* An opaque value: kept in a register, not loaded again after the switch (yield_no_maps_ns). */
	__asm__("" : "+r"(marker));
	switch_marker_at(marker, 1);
	if (__builtin_expect(work != 0, 0)) {   /* prev's switch_work (read_queue_and_work()): maps or trace */
		next = switch_out_work(prev, next);
		if (next == prev)
			return SWITCH_ABANDONED | (finish_switch(prev, marker) ? SWITCH_RESCHED : 0);
	}
	if (CONFIG_DEBUG_HIGHMEM)
		sched_check_switch(prev, next);
	next->switches_in++;
	current = next;
	arch_switch_to(&prev->saved_sp, &next->saved_sp);
	/* Back in prev, switched in by some later context_switch(). */
	return finish_switch(prev, marker) ? SWITCH_RESCHED : 0;
}

/*
 * t's ready queue, and in *work whether its switch has work: one 64-bit
 * load where a pointer is 32 bits (yield_no_maps_ns, yield_5_peers_ns).
 * The whole of switch_work is tested, in and out: the running thread's
 * in-work is normally done (its switch-in did it); when an interrupt has
 * set it again meanwhile, the switch-out's slow path finds nothing to do.
 */
#if UINTPTR_MAX == 0xffffffffu && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
_Static_assert(offsetof(struct thread, switch_work) == offsetof(struct thread, ready_queue) + 4 &&
	       sizeof(union switch_work) == 4 && offsetof(struct thread, queue_and_work) % 8 == 0,
	       "read_queue_and_work: the queue in the low word, switch_work in the high, one LDRD");
#endif
static inline __attribute__((always_inline))
struct list_head *read_queue_and_work(const struct thread *t, uint32_t *work)
{
#if UINTPTR_MAX == 0xffffffffu && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t w = *(const volatile uint64_t *)&t->queue_and_work;   /* one access: not narrowed into two */

	*work = (uint32_t)(w >> 32);
	return (struct list_head *)(uintptr_t)(uint32_t)w;
#else
	*work = (uint32_t)t->switch_work.out | t->switch_work.in;
	return t->ready_queue;
#endif
}

/*
 * How the running thread gives up the CPU, which says where it goes:
 *  SCHED_BLOCK:   it waits (state not READY): on no ready queue;
 *  SCHED_YIELD:   it yields: at the tail of its queue, behind its peers;
 *  SCHED_PREEMPT: a more urgent thread takes the CPU: at the head of its
 *                 queue, unless its slice is used up (RESCHED_ROTATE): tail.
 * Whether prev is queued at all is its state's call: a thread that is not
 * READY is on no ready queue, whatever how says.
 */
enum sched_how { SCHED_BLOCK, SCHED_YIELD, SCHED_PREEMPT };

/*
 * The one switch: put the outgoing thread (current) where it belongs,
 * pick the most urgent ready thread and switch to it, once. IRQs off,
 * preempt count zero. Inlined into its hot callers (yield, blocking, IRQ
 * exit), where how is a constant and the cases that cannot arise fold
 * away. Returns, once current has the CPU again, what context_switch()
 * reported (0 when prev kept the CPU).
 */
static inline __attribute__((always_inline)) unsigned int switch_once(enum sched_how how,
									 resched_t why)
{
	struct thread *prev = current, *next;
	uint32_t work;
	struct list_head *q = read_queue_and_work(prev, &work);
	unsigned int r;

	if (why)
		clear_need_resched();
	if (how == SCHED_BLOCK && prev->state != THREAD_READY) {
		next = dequeue_highest();
	} else if (how == SCHED_PREEMPT && !(why & RESCHED_ROTATE)) {
		/* irq_to_woken_thread_ns: no requeue of prev when nothing outranks it. */
		int hp = highest_ready_prio();

		if (hp <= prev->prio)
			return 0;
		next = dequeue_first(hp);
		rq_changed();
		list_add(&prev->node, q);
		runqueue.bitmap |= 1u << prev->prio;
	} else if (__builtin_expect(!(why & RESCHED_WAKE) && !list_empty(q), 1)) {
		/* yield_no_maps_ns, yield_5_peers_ns: prev and its first peer trade places, bitmap unchanged. */
		rq_changed();
		next = list_entry(__list_del_first(q), struct thread, node);      /* see dequeue_first() */
		list_add_tail(&prev->node, q);
	} else {
		enqueue_ready(prev, false);
		next = dequeue_highest();
		if (next == prev)
			return 0;
	}
	r = context_switch(prev, next, work);
	if (how == SCHED_PREEMPT && !(r & SWITCH_ABANDONED))
		pcpu_hot.nr_preemptions++;
	return r;
}

/*
 * switch_once(), then, back in prev: interrupts were on during the kmap
 * steps of the switch that resumed it (and, in debug builds, between the
 * steps of the invariant walk); if one woke a more urgent thread that
 * could not preempt then, decide again now rather than at the next tick
 * (a loop in the same frame, not a call: each lost race would cost a
 * frame on a small thread stack).
 */
static inline __attribute__((always_inline)) void __schedule(enum sched_how how, resched_t why)
{
	unsigned int r = switch_once(how, why);

	for (;;) {
		while (__builtin_expect(r & SWITCH_RESCHED, 0)) {
			/*
			 * Interrupts in once before the next switch (preemption
			 * off: one landing here only adds to what is due), so one
			 * interrupts-off window never holds the end of a switch and
			 * the whole of the next (irqs_off_max_insns).
			 */
			preempt_disable();
			arch_local_irq_window_svc();
			preempt_enable_no_resched();
			r = switch_once(SCHED_PREEMPT, need_resched());
		}
		if (!CONFIG_DEBUG_HIGHMEM || !sched_check_invariants())
			break;
		r = SWITCH_RESCHED;
	}
}

/* The same, out of line, for the callers off the hot paths. */
static __attribute__((noinline)) void schedule_preempted(void)
{
	__schedule(SCHED_PREEMPT, need_resched());
}

/* schedule() once its context is known to be right. */
static inline __attribute__((always_inline)) void schedule_checked(void)
{
	if (__builtin_expect(current->state == THREAD_READY, 0)) {
		/* Woken in schedule_waiting()'s window: queued by the waker, it is preempted or goes on. */
		sched_dequeue(current);
		schedule_preempted();
		return;
	}
	__schedule(SCHED_BLOCK, need_resched());
}

void schedule(void)
{
	BUG_ON(!arch_irqs_disabled());
	if (preempt_count())
		panic("schedule() with preempt_count 0x%x in thread '%s'",
		      preempt_count(), current->name);
	schedule_checked();
}

void schedule_waiting(void)
{
	preempt_disable();
	arch_local_irq_window_svc();
	preempt_enable_no_resched();
	schedule_checked();
}

/*
 * A wake-up that came while preemption was off (inside a kmap_local map or
 * unmap, say) is served at the final preempt_enable(): it is the same
 * preemption as at an IRQ's exit, a moment later.
 */
void preempt_schedule(void)
{
	unsigned long flags;

	/* A caller with interrupts off is in a critical section: not now. */
	if (!running || in_irq() || arch_irqs_disabled())
		return;
	flags = arch_local_irq_save();
	if (need_resched() && preempt_count() == 0)
		schedule_preempted();
	arch_local_irq_restore(flags);
}

/*
 * An IRQ taken inside a switch's kmap window (which raises the preempt
 * count) is counted here, off the path of the IRQ that may switch. Until
 * sched_begin() the boot thread's preempt count is 1, so "count zero"
 * also means "the scheduler runs".
 */
void __irq_exit(unsigned int count)
{
	if (count != 0) {
		__preempt_count = count;
		if (switch_window)
			stats.irqs_in_kmap_switch++;
		return;
	}
	/*
	 * The handlers are done: pending interrupts come in once before the
	 * switch, while the stored count still holds this IRQ's level (one
	 * landing here only adds to what is due, and never switches from a
	 * nested frame). Another interrupt then waits for the handler or for
	 * the switch, never for both in one window
	 * (irqs_off_handler_kernel_max_insns); the switch's window is a
	 * thread's, as at any other preemption (irqs_off_max_insns).
	 */
	arch_local_irq_window_svc();
	__preempt_count = 0;
	__schedule(SCHED_PREEMPT, need_resched());
}

/*
 * One 64-bit load answers "nothing atomic, no switch due": then nothing
 * outranks prev (every wake-up of a more urgent thread sets need_resched),
 * the common yield, where why is a constant 0. Read with interrupts off:
 * a wake-up just before must not be passed over. A yield is not a sleep:
 * the thread stays ready, as when it is preempted, so page faults
 * disabled do not forbid it (as in Linux, where pagefault_disable() no
 * longer implies preempt_disable()); an atomic caller is reported.
 */
void thread_yield(void)
{
	unsigned long flags = arch_local_irq_save_svc();     /* threads only */

	if (__builtin_expect(__preempt.both == 0, 1)) {
		__schedule(SCHED_YIELD, 0);
	} else {
		if (in_atomic())
			__might_sleep(__FILE__, __LINE__, __builtin_return_address(0));
		__schedule(SCHED_YIELD, need_resched());
	}
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
	if (t->prio == PRIO_IDLE || switch_window == SWITCH_WINDOW_OUT || t->slice_ticks == 0 ||
	    --t->slice > 0)
		return;
	t->slice = t->slice_ticks;
	if (runqueue.bitmap & (1u << t->prio))
		set_need_resched(RESCHED_ROTATE);
}

void thread_set_timeslice(struct thread *t, unsigned int ticks)
{
	unsigned long flags = arch_local_irq_save();

	BUG_ON(!t || t->prio == PRIO_IDLE);
	t->slice_ticks = ticks;
	t->slice = ticks;       /* a fresh slice: the old one's ticks do not count */
	arch_local_irq_restore(flags);
}

/* First code a new thread runs (from arch's first-switch frame). */
void sched_thread_entry(void)
{
	struct thread *me = current;

	finish_switch(me, switch_marker_base());
	/* Woken during our first switch-in, or the debug walk: see __schedule(). */
	if (need_resched() || (CONFIG_DEBUG_HIGHMEM && sched_check_invariants()))
		schedule_preempted();
	arch_local_irq_enable();
	me->entry(me->arg);
	thread_exit(0);
}

void sched_get_stats(struct sched_stats *st)
{
	unsigned long flags = arch_local_irq_save();
	struct list_head *pos;

	*st = stats;
	st->preemptions = pcpu_hot.nr_preemptions;
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
		INIT_LIST_HEAD(&runqueue.queue[i]);
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
	__schedule(SCHED_YIELD, need_resched());        /* boot thread stays READY at prio 0 */
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
