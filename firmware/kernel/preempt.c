/* Preemption, page-fault and migration counters (see lokal/preempt.h). */
#include <lokal/preempt.h>
#include <lokal/sched.h>
#include <lokal/bug.h>
#include <lokal/wait.h>
#include <lokal/sched-internal.h>
#include <lokal/irq.h>

void preempt_enable(void)
{
	BUG_ON((__preempt_count & PREEMPT_MASK) == 0);
	__asm__ volatile("" ::: "memory");
	if (--__preempt_count == 0 && need_resched())
		preempt_schedule();
}

void pagefault_disable(void)
{
	current->pagefault_disabled++;
	__asm__ volatile("" ::: "memory");
}

void pagefault_enable(void)
{
	__asm__ volatile("" ::: "memory");
	BUG_ON(current->pagefault_disabled == 0);
	current->pagefault_disabled--;
}

bool pagefault_disabled(void)
{
	return current->pagefault_disabled != 0;
}

void migrate_disable(void)
{
	current->migrate_disabled++;
}

void migrate_enable(void)
{
	BUG_ON(current->migrate_disabled == 0);
	current->migrate_disabled--;
}

/* What a handler may call instead, said by both reports of a call from one. */
static const char handler_may[] = "a handler may only call what never sleeps: a time-out "
				  "of 0, the try variants, complete(), up()";

void __might_sleep_in_irq(const char *call)
{
	unsigned int line = 0;
	const char *handler = irq_current_handler(&line);

	if (handler)
		panic("%s() may block, called from an IRQ handler: %s on IRQ %u, interrupting "
		      "thread '%s' (%s)", call, handler, line, current->name, handler_may);
	panic("%s() may block, called from an IRQ handler, interrupting thread '%s' (%s)",
	      call, current->name, handler_may);
}

void __might_sleep(const char *file, int line, void *caller)
{
	unsigned int irq = 0;
	const char *handler;

	if (!scheduler_running())
		return;
	handler = in_irq() ? irq_current_handler(&irq) : NULL;
	if (handler)
		panic("sleeping function called from invalid context at %s:%d, "
		      "called from %p (thread '%s', preempt_count 0x%x, pagefault_disabled %u, "
		      "in IRQ handler %s on IRQ %u)", file, line, caller, current->name,
		      preempt_count(), current->pagefault_disabled, handler, irq);
	panic("sleeping function called from invalid context at %s:%d, "
	      "called from %p (thread '%s', preempt_count 0x%x, pagefault_disabled %u%s)",
	      file, line, caller, current->name, preempt_count(),
	      current->pagefault_disabled, in_irq() ? ", in IRQ" : "");
}
