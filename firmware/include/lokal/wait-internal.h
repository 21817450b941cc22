/*
 * The wait queues' inline wake paths, for the kernel's services: they
 * relink a waiter into its ready queue at once, so they need the
 * scheduler's internals, which no application header includes.
 */
#ifndef LOKAL_WAIT_INTERNAL_H
#define LOKAL_WAIT_INTERNAL_H

#include <lokal/wait.h>
#include <lokal/sched-internal.h>

/* Wake first, the first waiter on wq as the caller has just read it (IRQs off). */
static inline void __wake_up_first(struct wait_queue *wq, struct list_head *first)
{
	wq->waiters.next = first->next;
	first->next->prev = &wq->waiters;
	wake_up_thread(list_entry(first, struct thread, node));
}

/*
 * wake_up() with interrupts already off (the caller's own lock): makes the
 * first waiter runnable and returns whether there was one; the caller
 * then calls preempt_check_resched() once its interrupts are back on.
 * Inline, as it is on the path from an interrupt to the thread it wakes:
 * the waiter is only unlinked, since wake_up_thread() relinks its node
 * into a ready queue at once.
 */
static inline bool wake_up_locked(struct wait_queue *wq)
{
	struct list_head *first = wq->waiters.next;

	if (first == &wq->waiters)
		return false;
	__wake_up_first(wq, first);
	return true;
}

#endif
