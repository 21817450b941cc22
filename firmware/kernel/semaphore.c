/* Counting semaphore; up() works from IRQ handlers. */
#include <lokal/mutex.h>
#include <lokal/preempt.h>
#include <asm/irqflags.h>

void sema_init(struct semaphore *s, int count)
{
	s->count = count;
	init_waitqueue(&s->waiters);
}

bool down_trylock(struct semaphore *s)
{
	unsigned long flags = arch_local_irq_save();
	bool ok = s->count > 0;

	if (ok)
		s->count--;
	arch_local_irq_restore(flags);
	return ok;
}

void down(struct semaphore *s)
{
	unsigned long flags;

	might_sleep();
	flags = arch_local_irq_save();
	while (s->count <= 0)
		sleep_on(&s->waiters);
	s->count--;
	arch_local_irq_restore(flags);
}

void up(struct semaphore *s)
{
	unsigned long flags = arch_local_irq_save();

	s->count++;
	wake_up_locked(&s->waiters);    /* one section: IRQ handlers call this */
	arch_local_irq_restore(flags);
	preempt_check_resched();
}
