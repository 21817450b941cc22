/*
 * Suspend and resume (see lokal/thread.h). The suspended flag is what
 * stops a thread; its state says where it is. A ready thread leaves its
 * ready queue at once; a blocked or sleeping one goes on waiting, and
 * whatever ends its wait (wake-up, time-out) parks it SUSPENDED instead of
 * making it ready (wake_up_thread()), with the wait's result kept for it.
 * Nothing else about the thread changes: its local kmaps stay in its
 * kmap_ctrl as over any switch, and mutexes it owns stay owned.
 */
#include <lokal/thread.h>
#include <lokal/sched-internal.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

static void check_target(const char *call, struct thread *t)
{
	if (!t || t->prio == PRIO_IDLE)
		panic("%s(%p) in thread '%s': %s", call, (void *)t, current->name,
		      !t ? "NULL thread" : "the idle thread");
}

void thread_suspend(struct thread *t)
{
	unsigned long flags;

	if (t == current) {
		if (in_irq())
			panic("thread_suspend of the interrupted thread '%s' from an IRQ handler",
			      t->name);
		might_sleep();
	}
	flags = arch_local_irq_save();
	check_target(__func__, t);
	if (t == current) {
		t->suspended = true;
		t->state = THREAD_SUSPENDED;
		schedule();
	} else if (!t->suspended && t->state != THREAD_DEAD) {
		t->suspended = true;
		if (t->state == THREAD_READY) {
			sched_dequeue(t);
			t->state = THREAD_SUSPENDED;
		}
	}
	arch_local_irq_restore(flags);
}

bool thread_resume(struct thread *t)
{
	unsigned long flags = arch_local_irq_save();
	bool was = t && t->suspended;

	check_target(__func__, t);
	if (was) {
		t->suspended = false;
		if (t->state == THREAD_SUSPENDED)
			wake_up_thread(t);
	}
	arch_local_irq_restore(flags);
	preempt_check_resched();
	return was;
}
