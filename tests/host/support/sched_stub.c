/*
 * Host stand-ins for the scheduler pieces the mm code calls (the target
 * gets them from firmware/kernel/sched.c and wait.c). There is one CPU and
 * no real switching: tests move `current` between thread structures and
 * call __kmap_local_sched_out()/__kmap_local_sched_in() as the scheduler
 * does, and a test can install what "another thread" does while the
 * current one sleeps on a wait queue.
 */
#include <stdio.h>
#include <string.h>
#include <lokal/sched.h>
#include <lokal/sched-internal.h>
#include <lokal/wait.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>
#include <lokal/highmem-internal.h>
#include "host_sched.h"

struct thread host_boot_thread = { .name = "boot" };
struct thread *current = &host_boot_thread;
bool host_scheduler_running;
void (*host_sleep_hook)(struct wait_queue *wq);
unsigned int host_sleeps, host_wakeups;

void host_sched_reset(void)
{
	memset(&host_boot_thread, 0, sizeof(host_boot_thread));
	strcpy(host_boot_thread.name, "boot");
	current = &host_boot_thread;
	host_scheduler_running = false;
	host_sleep_hook = NULL;
	host_sleeps = host_wakeups = 0;
	__preempt_count = 0;
	need_resched = false;
}

void host_thread_init(struct thread *t, const char *name)
{
	memset(t, 0, sizeof(*t));
	strncpy(t->name, name, THREAD_NAME_LEN - 1);
	INIT_LIST_HEAD(&t->node);
}

/* What context_switch() in sched.c does around the kmaps. */
void host_switch_to(struct thread *next)
{
	preempt_disable();
	if (current->kmap_ctrl.idx)
		__kmap_local_sched_out();
	current = next;
	if (current->kmap_ctrl.idx)
		__kmap_local_sched_in();
	preempt_enable();
}

bool scheduler_running(void)
{
	return host_scheduler_running;
}

void init_waitqueue(struct wait_queue *wq)
{
	INIT_LIST_HEAD(&wq->waiters);
}

void sleep_on(struct wait_queue *wq)
{
	BUG_ON(!arch_irqs_disabled());
	might_sleep();
	if (!scheduler_running())
		panic("thread '%s' would block on wait queue %p before the scheduler runs",
		      current->name, (void *)wq);
	host_sleeps++;
	list_add_tail(&current->node, &wq->waiters);
	if (!host_sleep_hook)
		panic("host: thread '%s' sleeps and no other thread exists to wake it",
		      current->name);
	arch_local_irq_enable();
	host_sleep_hook(wq);
	arch_local_irq_disable();
	if (!list_empty(&current->node))
		panic("host: thread '%s' was never woken", current->name);
}

bool wake_up(struct wait_queue *wq)
{
	if (list_empty(&wq->waiters))
		return false;
	list_del_init(wq->waiters.next);
	host_wakeups++;
	return true;
}

int wake_up_all(struct wait_queue *wq)
{
	int n = 0;

	while (wake_up(wq))
		n++;
	return n;
}

void preempt_schedule(void)
{
	need_resched = false;
}

void schedule(void)
{
}
