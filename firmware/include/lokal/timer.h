/*
 * Software timers, with Linux's names: a callback runs once at a tick
 * (mod_timer), or every period ticks (mod_timer_periodic). Timers are
 * plain structures the caller owns, static or not; nothing is allocated
 * per timer.
 *
 *   static void blink(struct timer_list *t) { led_toggle(); }
 *   static DEFINE_TIMER(led_timer, blink);
 *   mod_timer_periodic(&led_timer, jiffies_read() + 1, msecs_to_jiffies(500));
 *   ...
 *   del_timer_sync(&led_timer);
 *
 * Callbacks run one at a time, in expiry order, in the "timers" thread at
 * priority TIMER_THREAD_PRIO (above every application thread, so a
 * callback runs as soon as the tick that expires it has returned): they
 * are thread context and may call anything a thread may, but a callback
 * that blocks delays every other timer. A periodic timer is re-armed
 * before its callback runs, one period after the previous expiry; if the
 * thread fell more than a period behind, the missed expiries are skipped.
 *
 * The timer thread starts at the first timer_setup() or the first arming
 * from a thread; arming a timer from an IRQ handler before then is a
 * reported bug, as are NULL or uninitialised timers.
 */
#ifndef LOKAL_TIMER_H
#define LOKAL_TIMER_H

#include <stdint.h>
#include <stdbool.h>
#include <lokal/list.h>
#include <lokal/handle.h>

#define TIMER_THREAD_PRIO       31      /* PRIO_MAX */

struct timer_list {
	unsigned int magic;
	struct list_head entry;         /* on the active list while pending */
	uint64_t expires;               /* in jiffies */
	unsigned long period;           /* 0: one-shot */
	void (*function)(struct timer_list *);
};

#define __TIMER_INITIALIZER(name, fn) \
	{ TIMER_MAGIC, LIST_HEAD_INIT((name).entry), 0, 0, (fn) }
#define DEFINE_TIMER(name, fn) struct timer_list name = __TIMER_INITIALIZER(name, fn)

/* Set up timer to call fn; flags must be 0. Threads or boot code (it may start the timer thread). */
void timer_setup(struct timer_list *timer, void (*fn)(struct timer_list *), unsigned int flags);
/*
 * Arm timer (one-shot) to fire at tick expires (jiffies_read() + n: in n
 * ticks; a tick already past: at the next). Re-arms a pending timer.
 * Returns whether it was pending. Callable from IRQ handlers.
 */
int mod_timer(struct timer_list *timer, uint64_t expires);
/* The same, then again every period ticks until deleted; period 0 is a reported bug. */
int mod_timer_periodic(struct timer_list *timer, uint64_t expires, unsigned long period);
/* Disarm; returns whether it was pending. A running callback may still be running. IRQs too. */
int del_timer(struct timer_list *timer);
/*
 * Disarm and wait until its callback is not running. Returns whether it
 * was pending. Threads only; from the timer's own callback it is a
 * reported bug (it would wait for itself).
 */
int del_timer_sync(struct timer_list *timer);
/* Whether timer is armed. */
bool timer_pending(const struct timer_list *timer);

/* The tick's part (IRQ context): wake the timer thread when a timer is due. */
void timer_list_tick(uint64_t now);

#endif
