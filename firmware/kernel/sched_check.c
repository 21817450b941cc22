/*
 * The scheduler's invariants, checked after every switch in debug builds
 * (see sched_check_invariants() in lokal/sched-internal.h). A fast path
 * that splices a queue by hand and forgets the bitmap, a wake-up of the
 * running thread, a priority written behind the scheduler's back or a
 * preempt_disable() left over by an IRQ handler all show here, at the
 * first switch after the damage, not at some later wrong pick.
 */
#include <lokal/sched.h>
#include <lokal/sched-internal.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>

static void check_preempt_count(const struct thread *t, const char *when)
{
	if (preempt_count() != 0)
		panic("sched: invariant broken %s a switch, thread '%s': "
		      "preempt count 0x%x, not zero", when, t->name, preempt_count());
}

void sched_check_switch(const struct thread *prev, const struct thread *next)
{
	if (next == prev)
		panic("sched: invariant broken before a switch, thread '%s': "
		      "the running thread is on ready queue %d (picked to follow itself)",
		      prev->name, prev->prio);
	check_preempt_count(prev, "before");
}

void sched_check_invariants(void)
{
	const struct thread *me = current;

	for (int p = 0; p < NR_PRIO; p++) {
		const struct list_head *q = &runqueue.queue[p], *pos;
		bool bit = (runqueue.bitmap >> p) & 1u;

		if (list_empty(q) == bit)
			panic("sched: invariant broken after a switch to thread '%s': ready queue %d %s",
			      me->name, p, bit ? "is empty but its bitmap bit is set"
					       : "is not empty but its bitmap bit is clear");
		for (pos = q->next; pos != q; pos = pos->next) {
			const struct thread *t = list_entry(pos, struct thread, node);

			if (t == me)
				panic("sched: invariant broken after a switch to thread '%s': "
				      "the running thread is on ready queue %d", me->name, p);
			if (t->prio > me->prio && !(need_resched() & RESCHED_WAKE))
				panic("sched: invariant broken after a switch to thread '%s' (priority %d): "
				      "ready thread '%s' (priority %d) is more urgent but need_resched is not set",
				      me->name, me->prio, t->name, t->prio);
		}
	}
	check_preempt_count(me, "after");
}
