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
#include <stdint.h>
#include <lokal/list.h>
#include <lokal/timeout.h>
#include <asm/irqflags.h>
#include <lokal/sched.h>

struct wait_queue {
	struct list_head waiters;
};

#define WAIT_QUEUE_INIT(name) { LIST_HEAD_INIT((name).waiters) }

/* Set up wq with no waiter (WAIT_QUEUE_INIT does it statically). */
void init_waitqueue(struct wait_queue *wq);
/* Block the current thread on wq. Interrupts must be off; they are off on return. */
void sleep_on(struct wait_queue *wq);
/*
 * The same until the tick deadline (timeout_deadline(); TIMEOUT_NEVER: no
 * limit), queued FIFO or, with by_prio, behind every waiter at least as
 * urgent. Returns 0 once woken, -ETIMEDOUT when the deadline came first
 * (at once if it has passed), or what the waker put in wait_result.
 */
int sleep_on_deadline(struct wait_queue *wq, uint64_t deadline, bool by_prio);
/* Make the longest waiter ready; returns whether one was woken. */
bool wake_up(struct wait_queue *wq);

/* Make every waiter ready; returns how many. */
int wake_up_all(struct wait_queue *wq);

/*
 * Linux's wait_event family: sleep on wq (an lvalue, as in Linux) until
 * condition is true, testing it with interrupts off each time the thread
 * is woken; wakers change what condition reads and then wake_up(&wq).
 * wait_event_timeout() returns 0 if the timeout (ticks) ran out with
 * condition false, else the ticks that were left (at least 1). Thread
 * context only.
 */
#define wait_event_timeout(wq, condition, timeout)                              \
	({                                                                      \
		uint64_t __dl = timeout_deadline(timeout);                      \
		unsigned long __wf = arch_local_irq_save();                     \
		long __ret = 0;                                                 \
		for (;;) {                                                      \
			if (condition) {                                        \
				__ret = 1;                                      \
				break;                                          \
			}                                                       \
			if (sleep_on_deadline(&(wq), __dl, false)) {            \
				__ret = (condition) ? 1 : 0;                    \
				break;                                          \
			}                                                       \
		}                                                               \
		arch_local_irq_restore(__wf);                                   \
		if (__ret) {    /* the time left, worked out with IRQs on */    \
			__ret = timeout_remaining(__dl);                        \
			__ret = __ret ? __ret : 1;                              \
		}                                                               \
		__ret;                                                          \
	})
#define wait_event(wq, condition) \
	((void)wait_event_timeout(wq, condition, MAX_SCHEDULE_TIMEOUT))

/* True once threads exist and blocking is possible. */
bool scheduler_running(void);

#endif
