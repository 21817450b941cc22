/* Wait queues (see lokal/wait.h): FIFO or by priority, interrupts off as the lock. */
#include <lokal/wait-internal.h>
#include <lokal/timeout.h>
#include <lokal/sched.h>
#include <lokal/sched-internal.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

void init_waitqueue(struct wait_queue *wq)
{
	INIT_LIST_HEAD(&wq->waiters);
}

/* Behind the last waiter of me's priority or higher: most urgent first, FIFO among equals. */
static struct list_head *prio_slot(struct wait_queue *wq, int prio)
{
	struct list_head *pos;

	list_for_each(pos, &wq->waiters)
		if (list_entry(pos, struct thread, node)->prio < prio)
			break;
	return pos;
}

/* A thread that may not wait: report it, naming the thread (and the queue if the scheduler is not running yet). */
static void __attribute__((noinline)) bad_wait_context(struct thread *me, struct wait_queue *wq,
						       int line, void *caller)
{
	if (!scheduler_running())
		panic("thread '%s' would block on wait queue %p before the scheduler runs",
		      me->name, (void *)wq);
	__might_sleep(__FILE__, line, caller);
}

/*
 * What a thread that waits must be: preemptible, page faults on, and the
 * scheduler running; until sched_begin() the boot thread's preempt count
 * is 1, so the last is behind the same test: two loads on every wait.
 */
#define check_wait_context(me, wq)                                              \
	do {                                                                    \
		if (__builtin_expect(in_atomic() || (me)->pagefault_disabled, 0)) \
			bad_wait_context(me, wq, __LINE__, __builtin_return_address(0)); \
	} while (0)

/*
 * The timeout is armed first: a deadline already passed returns before
 * the context checks, as it would without arming (a wait of 0 ticks never
 * sleeps), and a failed check panics, so nothing needs undoing.
 */
int sleep_on_deadline(struct wait_queue *wq, uint64_t deadline, bool by_prio)
{
	struct thread *me = current;

	BUG_ON(!arch_irqs_disabled());
	if (deadline != TIMEOUT_NEVER && !timeout_arm(me, deadline))
		return -ETIMEDOUT;
	check_wait_context(me, wq);
	list_add_tail(&me->node, by_prio ? prio_slot(wq, me->prio) : &wq->waiters);
	me->wait_result = 0;
	me->state = THREAD_BLOCKED;
	schedule_waiting();
	timeout_disarm(me);
	return me->wait_result;
}

/*
 * No deadline: nothing to arm or disarm, and schedule() is the last call,
 * so the woken thread returns straight to sleep_on()'s caller.
 */
void sleep_on(struct wait_queue *wq)
{
	struct thread *me = current;

	BUG_ON(!arch_irqs_disabled());
	check_wait_context(me, wq);
	list_add_tail(&me->node, &wq->waiters);
	me->state = THREAD_BLOCKED;
	schedule_waiting();
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
