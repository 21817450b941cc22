/*
 * Mutex with owner checks and priority inheritance. Ownership passes
 * directly to the most urgent waiter at unlock, so a woken waiter never
 * races a newcomer for the lock.
 */
#include <lokal/mutex.h>
#include <lokal/sched.h>
#include <lokal/sched-internal.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

#define PI_CHAIN_MAX 16         /* mutex chains deeper than this are a design bug */

void mutex_init(struct mutex *m)
{
	m->owner = NULL;
	init_waitqueue(&m->waiters);
	INIT_LIST_HEAD(&m->held);
}

static void take(struct mutex *m, struct thread *t)
{
	m->owner = t;
	list_add_tail(&m->held, &t->held_mutexes);
}

static struct thread *top_waiter(struct mutex *m)
{
	struct thread *best = NULL;
	struct list_head *pos;

	list_for_each(pos, &m->waiters.waiters) {
		struct thread *t = list_entry(pos, struct thread, node);

		if (!best || t->prio > best->prio)
			best = t;
	}
	return best;
}

/* What t's priority must be now: its own, or its most urgent blocked waiter's. */
static int inherited_prio(struct thread *t)
{
	int prio = t->base_prio;
	struct list_head *pos;

	list_for_each(pos, &t->held_mutexes) {
		struct thread *w = top_waiter(list_entry(pos, struct mutex, held));

		if (w && w->prio > prio)
			prio = w->prio;
	}
	return prio;
}

/* Lend prio down the chain of owners, starting at the owner of m (IRQs off). */
static void boost_chain(struct mutex *m, int prio)
{
	for (int depth = 0; m && m->owner && depth < PI_CHAIN_MAX; depth++) {
		struct thread *o = m->owner;

		if (o->prio >= prio)
			return;
		sched_set_prio(o, prio);
		m = o->blocked_on;
	}
	if (m && m->owner && m->owner->prio < prio)
		panic("mutex chain deeper than %d from thread '%s'", PI_CHAIN_MAX, current->name);
}

bool mutex_trylock(struct mutex *m)
{
	unsigned long flags = arch_local_irq_save();
	bool ok = m->owner == NULL;

	if (ok)
		take(m, current);
	arch_local_irq_restore(flags);
	return ok;
}

void mutex_lock(struct mutex *m)
{
	struct thread *me = current;
	unsigned long flags;

	might_sleep();
	flags = arch_local_irq_save();
	if (m->owner == me)
		panic("mutex %p locked twice by thread '%s'", (void *)m, me->name);
	if (!m->owner) {
		take(m, me);
	} else {
		me->blocked_on = m;
		boost_chain(m, me->prio);
		/* Handed over by mutex_unlock(): when we wake up, we own it. */
		while (m->owner != me)
			sleep_on(&m->waiters);
		me->blocked_on = NULL;
	}
	arch_local_irq_restore(flags);
}

void mutex_unlock(struct mutex *m)
{
	struct thread *me = current, *next;
	unsigned long flags = arch_local_irq_save();

	if (m->owner != me)
		panic("mutex %p unlocked by thread '%s' but owned by '%s'", (void *)m,
		      me->name, m->owner ? m->owner->name : "nobody");
	list_del_init(&m->held);
	m->owner = NULL;
	next = top_waiter(m);
	if (next) {
		list_del_init(&next->node);
		take(m, next);
		wake_up_thread(next);
	}
	/* Give back what was lent through this mutex. */
	sched_set_prio(me, inherited_prio(me));
	if (next)
		boost_chain(m, inherited_prio(next));
	arch_local_irq_restore(flags);
	if (need_resched)
		preempt_schedule();
}
