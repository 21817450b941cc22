/*
 * Event flags (see lokal/event_flags.h). The setter decides for each
 * waiter, with interrupts off, and records what satisfied it: the waiter
 * does not re-test, so a time-out racing with the set ends the wait one
 * way only.
 */
#include <lokal/event_flags.h>
#include <lokal/wait-internal.h>
#include <lokal/timeout.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

static inline bool satisfied(uint32_t flags, uint32_t mask, unsigned int mode)
{
	return (mode & EF_ALL) ? (flags & mask) == mask : (flags & mask) != 0;
}

void event_flags_init(struct event_flags *ef)
{
	if (!ef)
		bad_handle(ef, "event flag group", __func__);
	ef->flags = 0;
	init_waitqueue(&ef->waiters);
	ef->magic = EVFL_MAGIC;
}

int event_flags_wait(struct event_flags *ef, uint32_t mask, unsigned int mode, uint32_t *got,
		     long timeout)
{
	struct thread *me = current;
	unsigned long flags;
	uint32_t now;
	int ret = 0;

	might_sleep_timed(timeout, __func__);
	/* The caller's arguments: checked before interrupts go off, to keep that window short. */
	if (mask == 0 || (mode & ~(EF_ALL | EF_CLEAR)))
		panic("event_flags_wait(%p, 0x%x, %u) in thread '%s': %s", (void *)ef,
		      (unsigned)mask, mode, me->name, mask ? "unknown mode" : "empty mask");
	flags = arch_local_irq_save();
	check_handle(ef, EVFL_MAGIC, "event flag group");
	now = ef->flags;
	if (satisfied(now, mask, mode)) {
		if (mode & EF_CLEAR)
			ef->flags = now & ~mask;
	} else if (timeout == 0) {
		ret = -EAGAIN;
	} else {
		me->wait_mask = mask;
		me->wait_mode = mode;
		ret = sleep_on_deadline(&ef->waiters, timeout_deadline(timeout), false);
		now = (uint32_t)(uintptr_t)me->wait_data;   /* set by event_flags_set() */
	}
	arch_local_irq_restore(flags);
	if (got)
		*got = ret ? 0 : now;
	return ret;
}

void event_flags_set(struct event_flags *ef, uint32_t set)
{
	unsigned long flags = arch_local_irq_save();
	struct list_head *pos, *n;
	uint32_t now;

	check_handle(ef, EVFL_MAGIC, "event flag group");
	now = ef->flags |= set;
	list_for_each_safe(pos, n, &ef->waiters.waiters) {
		struct thread *t = list_entry(pos, struct thread, node);

		if (!satisfied(now, t->wait_mask, t->wait_mode))
			continue;
		t->wait_data = (void *)(uintptr_t)now;
		if (t->wait_mode & EF_CLEAR)
			now = ef->flags = now & ~t->wait_mask;
		list_del_init(&t->node);
		wake_up_thread(t);
	}
	arch_local_irq_restore(flags);
	preempt_check_resched();
}

void event_flags_clear(struct event_flags *ef, uint32_t clear)
{
	unsigned long flags = arch_local_irq_save();

	check_handle(ef, EVFL_MAGIC, "event flag group");
	ef->flags &= ~clear;
	arch_local_irq_restore(flags);
}

uint32_t event_flags_get(struct event_flags *ef)
{
	check_handle(ef, EVFL_MAGIC, "event flag group");
	return ef->flags;
}
