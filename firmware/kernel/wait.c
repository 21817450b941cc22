/* Wait queues (see lokal/wait.h): FIFO, interrupts off as the lock. */
#include <lokal/wait.h>
#include <lokal/sched.h>
#include <lokal/sched-internal.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

void init_waitqueue(struct wait_queue *wq)
{
	INIT_LIST_HEAD(&wq->waiters);
}

void sleep_on(struct wait_queue *wq)
{
	struct thread *me = current;

	BUG_ON(!arch_irqs_disabled());
	might_sleep();
	if (!scheduler_running())
		panic("thread '%s' would block on wait queue %p before the scheduler runs",
		      me->name, (void *)wq);
	list_add_tail(&me->node, &wq->waiters);
	me->state = THREAD_BLOCKED;
	schedule();
}

bool wake_up(struct wait_queue *wq)
{
	unsigned long flags = arch_local_irq_save();
	bool woke = wake_up_locked(wq);

	arch_local_irq_restore(flags);
	preempt_check_resched();
	return woke;
}

int wake_up_all(struct wait_queue *wq)
{
	int n = 0;

	while (wake_up(wq))
		n++;
	return n;
}
