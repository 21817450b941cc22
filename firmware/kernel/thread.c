/* Thread life cycle: create, exit (with the kmap leak check), join, ps. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lokal/thread.h>
#include <lokal/sched-internal.h>
#include <lokal/thread_stack.h>
#include <lokal/trace.h>
#include <lokal/highmem-internal.h>
#include <lokal/preempt.h>
#include <lokal/wait.h>
#include <lokal/mutex.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>
#include <asm/switch_to.h>

#define STACK_FILL      0xa5u   /* untouched stack bytes, for the high-water mark */
#define STACK_MIN       1024

struct mutex threads_lock = MUTEX_INIT(threads_lock);
static unsigned int last_id;    /* the boot/idle thread is 0 */
const unsigned int thread_name_offset __attribute__((used)) = offsetof(struct thread, name);

static struct thread *create(const char *call, const char *name, void (*entry)(void *),
			     void *arg, int prio, size_t stack_size, bool suspended)
{
	struct thread *t;
	unsigned long flags;

	/* Its memory comes from the heap, whose lock is a mutex. */
	might_sleep();
	if (!name || !entry || prio <= PRIO_IDLE || prio > PRIO_MAX)
		panic("%s('%s', %p, prio %d) in thread '%s': %s", call, name ? name : "(null)",
		      (void *)entry, prio, current->name,
		      !name ? "NULL name" : !entry ? "NULL entry point" :
		      "priority out of range (1 to PRIO_MAX)");
	if (stack_size < STACK_MIN)
		stack_size = STACK_MIN;
	stack_size = (stack_size + 7) & ~(size_t)7;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->stack = alloc_thread_stack(&stack_size);     /* guard page below it */
	if (!t->stack) {
		free(t);
		return NULL;
	}
	memset(t->stack, STACK_FILL, stack_size);
	t->stack_size = stack_size;
	strncpy(t->name, name, THREAD_NAME_LEN - 1);
	t->id = ++last_id;
	t->base_prio = prio;
	sched_init_prio(t, prio);
	INIT_LIST_HEAD(&t->held_mutexes);
	t->entry = entry;
	t->arg = arg;
	t->slice = t->slice_ticks = SCHED_SLICE_TICKS;
	t->joiners = calloc(1, sizeof(*t->joiners));
	if (!t->joiners) {
		free_thread_stack(t->stack, stack_size);
		free(t);
		return NULL;
	}
	init_waitqueue(t->joiners);
	INIT_LIST_HEAD(&t->node);
	INIT_LIST_HEAD(&t->tnode);
	kmap_local_fork(t);
	t->saved_sp = arch_thread_init_stack(t->stack, stack_size, sched_thread_entry);

	t->suspended = suspended;
	flags = arch_local_irq_save();
	trace_thread_init(t);   /* with the list add: trace_start() walks the list */
	list_add_tail(&t->all, &all_threads);
	wake_up_thread(t);
	arch_local_irq_restore(flags);
	if (need_resched() && scheduler_running())
		preempt_schedule();
	return t;
}

struct thread *thread_create(const char *name, void (*entry)(void *), void *arg,
			     int prio, size_t stack_size)
{
	return create(__func__, name, entry, arg, prio, stack_size, false);
}

struct thread *thread_create_suspended(const char *name, void (*entry)(void *), void *arg,
				       int prio, size_t stack_size)
{
	return create(__func__, name, entry, arg, prio, stack_size, true);
}

/* A thread may not leave with anything that belongs to its context held. */
static void exit_checks(struct thread *me)
{
	kmap_assert_nomap(me);
	if (!list_empty(&me->held_mutexes))
		panic("thread '%s' exited holding mutex %p", me->name,
		      (void *)list_first_entry(&me->held_mutexes, struct mutex, held));
	if (preempt_count() || me->pagefault_disabled || me->migrate_disabled)
		panic("thread '%s' exited in atomic context (preempt_count 0x%x, "
		      "pagefault_disabled %u, migrate_disabled %u)", me->name,
		      preempt_count(), me->pagefault_disabled, me->migrate_disabled);
}

void thread_exit(int code)
{
	struct thread *me = current;

	exit_checks(me);
	arch_local_irq_disable();
	me->exit_code = code;
	me->state = THREAD_DEAD;
	wake_up_all(me->joiners);
	schedule_waiting();
	panic("dead thread '%s' was scheduled", me->name);
}

int thread_join(struct thread *t)
{
	unsigned long flags;
	int code;

	might_sleep();
	if (t == current)
		panic("thread_join(%p) in thread '%s': a thread cannot join itself", (void *)t,
		      current->name);
	flags = arch_local_irq_save();
	while (t->state != THREAD_DEAD)
		sleep_on(t->joiners);
	/*
	 * Dead for good: let interrupts in, so that the window t's exit
	 * opened, which the switch carried here, ends before the unlinking.
	 */
	arch_local_irq_restore(flags);
	mutex_lock(&threads_lock);
	flags = arch_local_irq_save();
	list_del_init(&t->all);
	sched_forget_thread(t);
	arch_local_irq_restore(flags);
	code = t->exit_code;
	free(t->joiners);
	free_thread_stack(t->stack, t->stack_size);
	free(t);
	mutex_unlock(&threads_lock);
	return code;
}

size_t thread_stack_unused(const struct thread *t)
{
	const unsigned char *p = t->stack;
	size_t n = 0;

	if (!p)
		return 0;
	while (n < t->stack_size && p[n] == STACK_FILL)
		n++;
	return n;
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
	return "?";
}

void thread_ps(void)
{
	struct list_head *pos;

	/* The state column holds "suspended", the longest state name. */
	printf("  %-15s %-9s %4s %9s %8s %11s\n", "THREAD", "STATE", "PRIO",
	       "SWITCHES", "KMAPS", "STACK USED");
	mutex_lock(&threads_lock);
	list_for_each(pos, &all_threads) {
		struct thread *t = list_entry(pos, struct thread, all);

		printf("  %-15s %-9s %4d %9lu %8d", t->name,
		       t == current ? "running" : t->suspended ? "suspended" : state_name(t->state), t->prio,
		       t->switches_in, t->kmap_ctrl.idx / KM_INCR);
		if (t->stack)
			printf(" %5u/%-5u\n", (unsigned)(t->stack_size - thread_stack_unused(t)),
			       (unsigned)t->stack_size);
		else
			printf(" %11s\n", "boot stack");
	}
	mutex_unlock(&threads_lock);
}
