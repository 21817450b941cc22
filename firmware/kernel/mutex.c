/* Mutex with owner checks; ownership passes directly to the longest waiter. */
#include <lokal/mutex.h>
#include <lokal/sched.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

void mutex_init(struct mutex *m)
{
	m->owner = NULL;
	init_waitqueue(&m->waiters);
}

bool mutex_trylock(struct mutex *m)
{
	unsigned long flags = arch_local_irq_save();
	bool ok = m->owner == NULL;

	if (ok)
		m->owner = current;
	arch_local_irq_restore(flags);
	return ok;
}

void mutex_lock(struct mutex *m)
{
	unsigned long flags;

	might_sleep();
	flags = arch_local_irq_save();
	if (m->owner == current)
		panic("mutex %p locked twice by thread '%s'", (void *)m, current->name);
	/* Handed over by mutex_unlock(): when we wake up, we own it. */
	while (m->owner && m->owner != current)
		sleep_on(&m->waiters);
	m->owner = current;
	arch_local_irq_restore(flags);
}

void mutex_unlock(struct mutex *m)
{
	unsigned long flags = arch_local_irq_save();

	if (m->owner != current)
		panic("mutex %p unlocked by thread '%s' but owned by '%s'", (void *)m,
		      current->name, m->owner ? m->owner->name : "nobody");
	if (list_empty(&m->waiters.waiters)) {
		m->owner = NULL;
	} else {
		m->owner = list_first_entry(&m->waiters.waiters, struct thread, node);
	}
	arch_local_irq_restore(flags);
	wake_up(&m->waiters);
}
