/*
 * Timeouts for every blocking call, in ticks (jiffies, CONFIG_HZ per
 * second), with Linux's conventions:
 *   0                     do not wait: fail at once if the call would block
 *                         (the services return -EAGAIN);
 *   1 .. LONG_MAX - 1     wake at the latest at the timeout'th tick from now
 *                         (so after more than timeout - 1 tick periods);
 *   MAX_SCHEDULE_TIMEOUT  wait for ever.
 * A timed wait that ran out returns -ETIMEDOUT (wait_event_timeout() and
 * wait_for_completion_timeout() return 0, as in Linux). A negative timeout
 * is a reported bug.
 *
 * One rule settles a timeout racing with a wake-up: the waker and the tick
 * both act with interrupts off, and only the one that finds the waiter
 * still BLOCKED ends its wait. A waker unlinks the waiter and makes it
 * ready (state READY) and hands over what it gives in the same section;
 * the tick times a waiter out only if it is still BLOCKED. So a wait ends
 * one way, never both, and what a waker gave is never lost.
 */
#ifndef LOKAL_TIMEOUT_H
#define LOKAL_TIMEOUT_H

#include <stdbool.h>
#include <stdint.h>
#include <limits.h>
#include <errno.h>
#include <generated/config.h>
#include <lokal/list.h>
#include <lokal/sched.h>
#include <lokal/preempt.h>

#define MAX_SCHEDULE_TIMEOUT    LONG_MAX
#define TIMEOUT_NEVER           UINT64_MAX      /* the deadline of MAX_SCHEDULE_TIMEOUT */

/*
 * The tick handler's work on timeouts is bounded, so that its interrupts-
 * off window does not grow with the number of sleepers: each tick looks at
 * no more than TICK_WALK_BUDGET entries of the timeout wheel (a slot counts
 * one, each thread in it one). Up to TICK_WALK_BUDGET - 1 threads due at
 * one tick wake at that tick; more wake over the next ticks, in the order
 * their timeouts were armed, another budget's worth each tick. Each
 * wake-up costs the tick about 50 instructions: four entries keep the
 * kernel's part of the tick's window under irqs_off_handler_kernel_max_insns
 * (300) in every build, debug ones included.
 */
#define TICK_WALK_BUDGET        4u

/* Milliseconds to ticks, rounded up (so a wait is never shorter than asked). */
static inline long msecs_to_jiffies(unsigned int ms)
{
	return (long)(((uint64_t)ms * CONFIG_HZ + 999) / 1000);
}

/*
 * The context check of a call that may block (call: its name for the
 * report), made whenever timeout is not 0. From an IRQ handler it is a
 * reported bug in every build, whether or not the call would have had to
 * wait: one test of the IRQ count. A wait from an atomic section is
 * always caught when the call does block (sleep_on_deadline()); in the
 * debug build (DEBUG_HIGHMEM=1) on every call, as the fast paths are a
 * few instructions shorter without it.
 */
#define might_sleep_timed(timeout, call)                                        \
	do {                                                                    \
		if (timeout) {                                                  \
			if (__builtin_expect(in_irq(), 0))                      \
				__might_sleep_in_irq(call);                     \
			if (CONFIG_DEBUG_HIGHMEM)                               \
				might_sleep();                                  \
		}                                                               \
	} while (0)

/* The tick at which a wait of timeout ticks, starting now, ends (any context). */
uint64_t timeout_deadline(long timeout);
/* Ticks left until deadline, at least 1 while it lies ahead, 0 once reached (any context). */
long timeout_remaining(uint64_t deadline);
/*
 * Put t on the timeout list, to be woken at deadline (IRQs off); false,
 * and nothing armed, if deadline has passed already.
 */
bool timeout_arm(struct thread *t, uint64_t deadline);

/* Take a thread that runs again off the timeout list, if it is still there (IRQs off). */
static inline void timeout_disarm(struct thread *t)
{
	if (__builtin_expect(!list_empty(&t->tnode), 0))
		list_del_init(&t->tnode);
}

/*
 * Sleep for timeout ticks (Linux's schedule_timeout with the state
 * already set: here it always sleeps). Returns 0: the time ran out.
 * Thread context only.
 */
long schedule_timeout(long timeout);

#endif
