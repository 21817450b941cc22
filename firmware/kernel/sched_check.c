/*
 * The scheduler's invariants, checked after every switch in debug builds
 * (see sched_check_invariants() in lokal/sched-internal.h). A fast path
 * that splices a queue by hand and forgets the bitmap, a wake-up of the
 * running thread, a priority written behind the scheduler's back or a
 * preempt_disable() left over by an IRQ handler all show here, at the
 * first switch after the damage, not at some later wrong pick.
 *
 * The walk over every ready queue is as long as there are threads, so it
 * is not made with interrupts masked: each step (one queue's bitmap bit,
 * or one queued thread) is, and interrupts are let in between, with the
 * preempt count raised so that none switches. A step trusts the node it
 * stands on only while runqueue.gen is unchanged (an interrupt may have
 * taken that thread off its queue and it may even be freed): otherwise
 * that queue's walk starts again.
 */
#include <lokal/sched.h>
#include <lokal/sched-internal.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

/* Restarts of one queue's walk before it is left unchecked this time. */
#define WALK_RESTARTS 8

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

/* Interrupts masked: let the pending ones in, between two steps. */
static inline void irq_window(void)
{
	arch_local_irq_enable();
	arch_local_irq_disable();
}

static void check_bit(const struct thread *me, int p)
{
	bool bit = (runqueue.bitmap >> p) & 1u;

	if (list_empty(&runqueue.queue[p]) == bit)
		panic("sched: invariant broken after a switch to thread '%s': ready queue %d %s",
		      me->name, p, bit ? "is empty but its bitmap bit is set"
				       : "is not empty but its bitmap bit is clear");
}

/* t's ready_queue is its priority's, as sched_set_prio() keeps it. */
static void check_ready_queue(const struct thread *me, const struct thread *t)
{
	if (t->ready_queue != &runqueue.queue[t->prio])
		panic("sched: invariant broken after a switch to thread '%s': thread '%s' (priority %d) "
		      "has the ready queue of priority %d", me->name, t->name, t->prio,
		      (int)(t->ready_queue - runqueue.queue));
}

static void check_queued(const struct thread *me, const struct thread *t, int p)
{
	if (t == me)
		panic("sched: invariant broken after a switch to thread '%s': "
		      "the running thread is on ready queue %d", me->name, p);
	if (t->prio > me->prio && !(need_resched() & RESCHED_WAKE))
		panic("sched: invariant broken after a switch to thread '%s' (priority %d): "
		      "ready thread '%s' (priority %d) is more urgent but need_resched is not set",
		      me->name, me->prio, t->name, t->prio);
	check_ready_queue(me, t);
}

bool sched_check_invariants(void)
{
	const struct thread *me = current;

	check_preempt_count(me, "after");
	check_ready_queue(me, me);
	__preempt_count++;      /* an IRQ between two steps must not switch */
	for (int p = 0; p < NR_PRIO; p++) {
		const struct list_head *q = &runqueue.queue[p], *pos;
		int restarts = 0;
		unsigned int gen;
again:
		irq_window();
		gen = runqueue.gen;
		check_bit(me, p);
		for (pos = q->next; pos != q; pos = pos->next) {
			check_queued(me, list_entry(pos, struct thread, node), p);
			irq_window();
			if (runqueue.gen != gen) {
				if (++restarts < WALK_RESTARTS)
					goto again;
				break;
			}
		}
	}
	__preempt_count--;
	return need_resched() != 0;
}
