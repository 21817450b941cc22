/* Scheduler entry points for the kernel's own use (not for applications). */
#ifndef LOKAL_SCHED_INTERNAL_H
#define LOKAL_SCHED_INTERNAL_H

/* Pick the next thread and switch to it; current must already be queued or blocked. */
void schedule(void);

#include <stdbool.h>
#include <stdint.h>
#include <lokal/list.h>
#include <lokal/sched.h>
#include <lokal/preempt.h>     /* preempt_schedule() */
#include <generated/config.h>

struct thread;

/* Round-robin quantum within one priority, in ticks. */
#define SCHED_SLICE_TICKS 2

/*
 * Debug builds (CONFIG_DEBUG_HIGHMEM), after every switch: each non-empty
 * queue has its bitmap bit and each empty one has not, the running thread
 * is ready and on no ready queue, a ready thread more urgent than the
 * running one means need_resched() has RESCHED_WAKE, the preempt count is
 * zero, each thread's ready_queue is its priority's, every queued thread
 * is ready, and every other ready thread is on a ready queue (a blocked
 * one's node linked too). A violation panics naming the running thread and the invariant. The walk
 * lets interrupts in between its steps (none switches meanwhile): returns
 * whether one of them asked for a switch, which the caller then makes.
 */
bool sched_check_invariants(void);
/* The same as prev leaves the CPU for next: a preempt count of zero, next not prev. */
void sched_check_switch(const struct thread *prev, const struct thread *next);

/*
 * schedule() for a thread that has just made itself wait (queued on a wait
 * queue, a timeout armed, or dead), its context checked by the caller:
 * interrupts off, preemptible. It lets interrupts in once first, so that
 * the setup and the switch are two interrupts-off windows instead of one
 * as long as both. A wake-up or time-out that comes meanwhile queues the
 * still-running thread as ready, like any other; the switch then takes it
 * off again and lets it keep the CPU unless something outranks it. No
 * switch in that gap: a waiter's node is on its wait queue, not a ready
 * queue. Interrupts off on return.
 */
void schedule_waiting(void);

/* Every thread, for ps and the leak checks. */
extern struct list_head all_threads;
/*
 * Held by whoever walks all_threads with preemption on (consoles) and by
 * thread_join() while it unlinks and frees a thread, so a walk never
 * reaches freed memory. Adding a thread needs only interrupts off.
 */
extern struct mutex threads_lock;

/*
 * Every change of a ready queue, for the debug walk, which lets interrupts
 * in between its steps and must know when the node it stands on moved.
 */
static inline void rq_changed(void)
{
	if (CONFIG_DEBUG_HIGHMEM)
		pcpu_hot.rq.gen++;
}

/* Give t (on no ready queue) priority prio, and the ready queue that goes with it. */
static inline void sched_init_prio(struct thread *t, int prio)
{
	t->prio = prio;
	t->ready_queue = &pcpu_hot.rq.queue[prio];
}

/* Queue t as ready, at the head of its priority's queue or at the tail (IRQs off). */
static inline void enqueue_ready(struct thread *t, bool at_head)
{
	rq_changed();
	t->state = THREAD_READY;
	if (at_head)
		list_add(&t->node, &pcpu_hot.rq.queue[t->prio]);
	else
		list_add_tail(&t->node, &pcpu_hot.rq.queue[t->prio]);
	pcpu_hot.rq.bitmap |= 1u << t->prio;
}

/*
 * Make a blocked or sleeping t runnable (IRQs off) and ask for a switch if
 * it outranks the running thread. A suspended thread's wait ends all the
 * same, but it is parked until thread_resume(). Inline: it is on every
 * interrupt's path to the thread the interrupt wakes.
 */
static inline void wake_up_thread(struct thread *t)
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
/* Take t, ready but not running, off its ready queue (IRQs off). */
void sched_dequeue(struct thread *t);
/* Change t's effective priority, moving it between ready queues (IRQs off). */
void sched_set_prio(struct thread *t, int prio);
/* Time-slice accounting, called from sched_tick() (IRQ context). */
void sched_tick_slice(void);
/* Start scheduling; the caller becomes idle and gets the CPU back when nothing else is ready. */
void sched_begin(void);
/* A reaped thread: its counters go into the totals sched_get_stats() reports, and mm forgets it. */
void sched_forget_thread(struct thread *t);
/* First C code of every new thread. */
void sched_thread_entry(void);

#endif
