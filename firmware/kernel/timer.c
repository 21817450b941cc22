/* The tick: jiffies, sleeping threads, time slices. */
#include <lokal/thread.h>
#include <lokal/sched-internal.h>
#include <lokal/platform.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

static volatile uint64_t jiffies;
static LIST_HEAD_DECL(sleepers);        /* sorted by wake_tick */

uint64_t jiffies_read(void)
{
	unsigned long flags = arch_local_irq_save();
	uint64_t j = jiffies;

	arch_local_irq_restore(flags);
	return j;
}

void sched_tick(void)
{
	jiffies++;
	while (!list_empty(&sleepers)) {
		struct thread *t = list_first_entry(&sleepers, struct thread, node);

		if (t->wake_tick > jiffies)
			break;
		list_del_init(&t->node);
		wake_up_thread(t);
	}
	sched_tick_slice();
}

void sleep_ticks(unsigned int n)
{
	struct thread *me = current;
	struct list_head *pos;
	unsigned long flags;

	might_sleep();
	flags = arch_local_irq_save();
	me->wake_tick = jiffies + (n ? n : 1);
	list_for_each(pos, &sleepers)
		if (list_entry(pos, struct thread, node)->wake_tick > me->wake_tick)
			break;
	list_add_tail(&me->node, pos);  /* insert before pos */
	me->state = THREAD_SLEEPING;
	schedule();
	arch_local_irq_restore(flags);
}

void sleep_ms(unsigned int ms)
{
	sleep_ticks((unsigned int)(((uint64_t)ms * CONFIG_HZ + 999) / 1000));
}
