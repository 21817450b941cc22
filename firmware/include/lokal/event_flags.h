/*
 * Event flags: a group of 32 flags that threads wait on, for any or all
 * of a mask, optionally clearing what they waited for as they leave.
 * Setting and clearing work from IRQ handlers.
 *
 *   static DEFINE_EVENT_FLAGS(ev);                      (or event_flags_init(&ev) at run time)
 *   event_flags_set(&ev, RX_DONE);                      (an IRQ handler)
 *   uint32_t got;
 *   if (event_flags_wait(&ev, RX_DONE | ERR, EF_ANY | EF_CLEAR, &got,
 *                        msecs_to_jiffies(20)) == 0) ...
 *
 * event_flags_set() wakes, in the order they began to wait, every waiter
 * its new flags satisfy; a waiter with EF_CLEAR clears its mask's flags
 * at that moment, so a later waiter in the same call may no longer be
 * satisfied. Results: 0 satisfied (*got: the flags as they were when it
 * was, before any clear); -EAGAIN not satisfied and timeout 0;
 * -ETIMEDOUT the time ran out first. A NULL or uninitialised group, a
 * zero mask, an unknown mode or a blocking call from an IRQ handler is a
 * reported bug naming the thread.
 */
#ifndef LOKAL_EVENT_FLAGS_H
#define LOKAL_EVENT_FLAGS_H

#include <stdint.h>
#include <lokal/wait.h>
#include <lokal/handle.h>

#define EF_ANY          0u      /* satisfied by any flag of the mask */
#define EF_ALL          1u      /* satisfied once every flag of the mask is set */
#define EF_CLEAR        2u      /* clear the mask's flags when satisfied */

struct event_flags {
	unsigned int magic;
	uint32_t flags;
	struct wait_queue waiters;      /* FIFO; wait_mask/wait_mode, wait_data: got */
};

/* A group with every flag clear, ready at boot: static DEFINE_EVENT_FLAGS(ev); */
#define EVENT_FLAGS_INIT(name) { EVFL_MAGIC, 0, WAIT_QUEUE_INIT((name).waiters) }
#define DEFINE_EVENT_FLAGS(name) struct event_flags name = EVENT_FLAGS_INIT(name)

/* Set ef up with every flag clear. Threads or boot code. */
void event_flags_init(struct event_flags *ef);
/* Wait up to timeout ticks for mask (mode: EF_ANY or EF_ALL, | EF_CLEAR). got may be NULL. */
int event_flags_wait(struct event_flags *ef, uint32_t mask, unsigned int mode, uint32_t *got,
		     long timeout);
/* Set flags and wake whom they satisfy; callable from IRQ handlers. */
void event_flags_set(struct event_flags *ef, uint32_t flags);
/* Clear flags; callable from IRQ handlers. */
void event_flags_clear(struct event_flags *ef, uint32_t flags);
/* The flags now. */
uint32_t event_flags_get(struct event_flags *ef);

#endif
