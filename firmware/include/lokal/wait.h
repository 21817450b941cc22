/*
 * Wait queues. On one CPU the "lock" around a wait queue is interrupts
 * off: the caller disables them, checks its condition, and calls
 * sleep_on(), which queues the thread, switches away and returns (with
 * interrupts still off) once woken. wake_up*() may be called from IRQ
 * handlers.
 */
#ifndef LOKAL_WAIT_H
#define LOKAL_WAIT_H

#include <stdbool.h>
#include <lokal/list.h>
#include <lokal/sched.h>
#include <lokal/sched-internal.h>

struct wait_queue {
	struct list_head waiters;
};

#define WAIT_QUEUE_INIT(name) { LIST_HEAD_INIT((name).waiters) }

void init_waitqueue(struct wait_queue *wq);
/* Block the current thread on wq. Interrupts must be off; they are off on return. */
void sleep_on(struct wait_queue *wq);
/* Make the longest waiter ready; returns whether one was woken. */
bool wake_up(struct wait_queue *wq);
/*
 * The same with interrupts already off (the caller's own lock): makes the
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
	wq->waiters.next = first->next;
	first->next->prev = &wq->waiters;
	wake_up_thread(list_entry(first, struct thread, node));
	return true;
}
/* Make every waiter ready; returns how many. */
int wake_up_all(struct wait_queue *wq);

/* True once threads exist and blocking is possible. */
bool scheduler_running(void);

#endif
