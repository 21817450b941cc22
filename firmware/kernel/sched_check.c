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
 *
 * Then every thread's node, one thread per step: a ready thread's node is
 * linked (both neighbours point back at it) and a blocked thread's too; a
 * queued thread is ready. If no ready queue changed during the whole walk,
 * the ready threads (the running one aside) are exactly as many as the
 * queued ones: a ready thread linked into some other list, or unlinked
 * behind a node that still looks linked, shows as a difference.
 */
#include <lokal/sched.h>
#include <lokal/sched-internal.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>
#include "runqueue.h"

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

/*
 * A preemption point between steps of the walk (interrupts off): the
 * raised count drops to zero, so a wake-up so far is seen here. The walk
 * then gives up, and the caller switches; the next switch walks again.
 * So even the debug build holds preemption off only a step at a time
 * (preempt_off_kernel_max_insns).
 */
static bool walk_point(void)
{
	bool resched;

	__preempt_count--;
	resched = need_resched() != 0;
	__preempt_count++;
	return resched;
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

static const char *state_name(enum thread_state s)
{
	switch (s) {
	case THREAD_READY: return "ready";
	case THREAD_BLOCKED: return "blocked";
	case THREAD_SLEEPING: return "sleeping";
	case THREAD_DEAD: return "dead";
	case THREAD_SUSPENDED: return "suspended";
	}
	return "in no known state";
}

static void check_queued(const struct thread *me, const struct thread *t, int p)
{
	if (t == me)
		panic("sched: invariant broken after a switch to thread '%s': "
		      "the running thread is on ready queue %d", me->name, p);
	if (t->state != THREAD_READY)
		panic("sched: invariant broken after a switch to thread '%s': "
		      "thread '%s' is on ready queue %d but %s", me->name, t->name, p,
		      state_name(t->state));
	if (t->prio > me->prio && !(need_resched() & RESCHED_WAKE))
		panic("sched: invariant broken after a switch to thread '%s' (priority %d): "
		      "ready thread '%s' (priority %d) is more urgent but need_resched is not set",
		      me->name, me->prio, t->name, t->prio);
	check_ready_queue(me, t);
}

/* Both neighbours of n point back at it, and n is not alone. */
static bool linked(const struct list_head *n)
{
	return n->next != n && n->next->prev == n && n->prev->next == n;
}

/* t is not the running thread: its node is linked if its state says it is queued. 1 if ready. */
static unsigned int check_node(const struct thread *me, const struct thread *t)
{
	if (t->state != THREAD_READY && t->state != THREAD_BLOCKED)
		return 0;       /* sleeping, suspended or dead: the node is nobody's */
	if (!linked(&t->node))
		panic("sched: invariant broken after a switch to thread '%s': %s thread '%s' "
		      "(priority %d) is on no %s queue: its node is not linked", me->name,
		      state_name(t->state), t->name, t->prio,
		      t->state == THREAD_READY ? "ready" : "wait");
	return t->state == THREAD_READY;
}

static bool on_ready_queue(const struct thread *t)
{
	const struct list_head *q = &runqueue.queue[t->prio], *pos;

	list_for_each(pos, q)
		if (pos == &t->node)
			return true;
	return false;
}

/* More (or fewer) ready threads than queued ones: name one that is on no ready queue. */
static void __attribute__((noreturn)) ready_not_queued(const struct thread *me,
						      unsigned int ready, unsigned int queued)
{
	const struct list_head *pos;

	list_for_each(pos, &all_threads) {
		const struct thread *t = list_entry(pos, struct thread, all);

		if (t != me && t->state == THREAD_READY && !on_ready_queue(t))
			panic("sched: invariant broken after a switch to thread '%s': ready thread "
			      "'%s' (priority %d) is on no ready queue", me->name, t->name, t->prio);
	}
	panic("sched: invariant broken after a switch to thread '%s': %u ready threads "
	      "besides it, but %u on the ready queues", me->name, ready, queued);
}

bool sched_check_invariants(void)
{
	const struct thread *me = current;
	unsigned int gen0 = runqueue.gen, queued = 0, ready = 0;
	const struct list_head *pos;

	check_preempt_count(me, "after");
	check_ready_queue(me, me);
	if (me->state != THREAD_READY)
		panic("sched: invariant broken after a switch to thread '%s': it runs, but is %s",
		      me->name, state_name(me->state));
	__preempt_count++;      /* an IRQ between two steps must not switch */
	for (int p = 0; p < NR_PRIO; p++) {
		const struct list_head *q = &runqueue.queue[p];
		int restarts = 0;
		unsigned int gen, n;
again:
		irq_window();
		gen = runqueue.gen;
		n = 0;
		check_bit(me, p);
		for (pos = q->next; pos != q; pos = pos->next) {
			check_queued(me, list_entry(pos, struct thread, node), p);
			n++;
			irq_window();
			if (runqueue.gen != gen) {
				if (++restarts < WALK_RESTARTS)
					goto again;
				break;
			}
		}
		queued += n;
		if (walk_point())
			goto given_up;
	}
	/* No switch meanwhile, so no thread is reaped: the list holds still (a new one goes last). */
	for (pos = all_threads.next; pos != &all_threads; pos = pos->next) {
		const struct thread *t = list_entry(pos, struct thread, all);

		if (t != me)
			ready += check_node(me, t);
		irq_window();
		if (walk_point())
			goto given_up;
	}
	if (runqueue.gen == gen0 && ready != queued)
		ready_not_queued(me, ready, queued);
given_up:
	__preempt_count--;
	return need_resched() != 0;
}
