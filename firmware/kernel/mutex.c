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
#include <lokal/timeout.h>
#include <asm/irqflags.h>

#define PI_CHAIN_MAX 16         /* mutex chains deeper than this are a design bug */

void mutex_init(struct mutex *m)
{
	if (!m)
		bad_handle(m, "mutex", __func__);
	m->magic = MUTEX_MAGIC;
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

/*
 * A waiter gave up (timed out): what it lent is taken back along the
 * chain of owners, each down to what its remaining waiters still lend.
 */
static void unboost_chain(struct mutex *m)
{
	for (int depth = 0; m && m->owner && depth < PI_CHAIN_MAX; depth++) {
		struct thread *o = m->owner;
		int prio = inherited_prio(o);

		if (prio == o->prio)
			return;
		sched_set_prio(o, prio);
		m = o->blocked_on;
	}
}

bool mutex_trylock(struct mutex *m)
{
	unsigned long flags = arch_local_irq_save();
	bool ok;

	check_handle(m, MUTEX_MAGIC, "mutex");
	ok = m->owner == NULL;

	if (ok)
		take(m, current);
	arch_local_irq_restore(flags);
	return ok;
}

int mutex_lock_timeout(struct mutex *m, long timeout)
{
	struct thread *me = current;
	unsigned long flags;
	int ret = 0;

	if (timeout)
		might_sleep();
	if (in_irq())
		panic("%s(%p) in an IRQ handler (thread '%s'): a mutex is for threads",
		      __func__, (void *)m, me->name);
	flags = arch_local_irq_save();
	check_handle(m, MUTEX_MAGIC, "mutex");
	if (m->owner == me)
		panic("mutex %p locked twice by thread '%s'", (void *)m, me->name);
	if (!m->owner) {
		take(m, me);
	} else if (timeout == 0) {
		ret = -EAGAIN;
	} else {
		uint64_t deadline = timeout == MAX_SCHEDULE_TIMEOUT ? TIMEOUT_NEVER :
				    timeout_deadline(timeout);

		me->blocked_on = m;
		boost_chain(m, me->prio);
		/*
		 * Handed over by mutex_unlock(): when woken by it, we own it. A
		 * time-out unlinked us before any unlock could pick us. Without
		 * a deadline, the plain sleep_on(): the shorter IRQs-off stretch.
		 */
		while (m->owner != me && ret == 0) {
			if (deadline == TIMEOUT_NEVER)
				sleep_on(&m->waiters);
			else
				ret = sleep_on_deadline(&m->waiters, deadline, false);
		}
		me->blocked_on = NULL;
		if (ret)
			unboost_chain(m);
	}
	arch_local_irq_restore(flags);
	return ret;
}

void mutex_lock(struct mutex *m)
{
	mutex_lock_timeout(m, MAX_SCHEDULE_TIMEOUT);
}

void mutex_unlock(struct mutex *m)
{
	struct thread *me = current, *next;
	unsigned long flags = arch_local_irq_save();

	check_handle(m, MUTEX_MAGIC, "mutex");
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
	if (need_resched())
		preempt_schedule();
}
