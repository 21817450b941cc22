/* Completions (see lokal/completion.h). */
#include <limits.h>
#include <lokal/wait-internal.h>
#include <lokal/completion.h>
#include <lokal/timeout.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

#define COMPLETE_ALL    UINT_MAX        /* done for ever: complete_all() */

void init_completion(struct completion *x)
{
	if (!x)
		bad_handle(x, "completion", __func__);
	x->magic = COMPL_MAGIC;
	x->done = 0;
	init_waitqueue(&x->wait);
}

void reinit_completion(struct completion *x)
{
	unsigned long flags = arch_local_irq_save();

	check_handle(x, COMPL_MAGIC, "completion");
	if (!list_empty(&x->wait.waiters))
		panic("reinit_completion(%p) in thread '%s' while threads wait on it",
		      (void *)x, current->name);
	x->done = 0;
	arch_local_irq_restore(flags);
}

/*
 * A woken waiter consumes its complete() itself: one given as a wait timed
 * out stays. The deadline and the time left are worked out with interrupts
 * on: only the test, the sleep and the take need them off.
 */
long wait_for_completion_timeout(struct completion *x, long timeout)
{
	unsigned long flags;
	uint64_t deadline;
	bool got;
	int err = 0;
	long ret;

	might_sleep_timed(timeout, __func__);
	deadline = timeout_deadline(timeout);
	flags = arch_local_irq_save();
	check_handle(x, COMPL_MAGIC, "completion");
	while (x->done == 0 && err == 0)
		err = sleep_on_deadline(&x->wait, deadline, false);
	got = x->done != 0;
	if (got && x->done != COMPLETE_ALL)
		x->done--;
	arch_local_irq_restore(flags);
	if (!got)
		return 0;
	ret = timeout_remaining(deadline);
	return ret ? ret : 1;
}

void wait_for_completion(struct completion *x)
{
	wait_for_completion_timeout(x, MAX_SCHEDULE_TIMEOUT);
}

bool try_wait_for_completion(struct completion *x)
{
	unsigned long flags = arch_local_irq_save();
	bool ok;

	check_handle(x, COMPL_MAGIC, "completion");
	ok = x->done != 0;
	if (ok && x->done != COMPLETE_ALL)
		x->done--;
	arch_local_irq_restore(flags);
	return ok;
}

bool completion_done(struct completion *x)
{
	check_handle(x, COMPL_MAGIC, "completion");
	return x->done != 0;
}

void complete(struct completion *x)
{
	unsigned long flags = arch_local_irq_save();

	check_handle(x, COMPL_MAGIC, "completion");
	if (x->done < COMPLETE_ALL - 1)
		x->done++;
	wake_up_locked(&x->wait);
	arch_local_irq_restore(flags);
	preempt_check_resched();
}

void complete_all(struct completion *x)
{
	unsigned long flags = arch_local_irq_save();

	check_handle(x, COMPL_MAGIC, "completion");
	x->done = COMPLETE_ALL;
	while (wake_up_locked(&x->wait))
		;
	arch_local_irq_restore(flags);
	preempt_check_resched();
}
