/* The tick: jiffies, sleeping threads, time slices. */
#include <lokal/thread.h>
#include <lokal/sched-internal.h>
#include <lokal/platform.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

static volatile uint64_t jiffies;
/*
 * Sleeping threads, hashed by wake tick into a wheel: going to sleep links
 * a thread in O(1) with interrupts off, where a sorted list made that
 * stretch grow with the number of sleepers; the tick looks at one slot,
 * whose threads are due now or a whole turn later. Within a slot threads
 * stay in the order they went to sleep, so those due at one tick wake in
 * that order.
 */
#define SLEEP_WHEEL     64u
static struct list_head sleep_wheel[SLEEP_WHEEL];       /* {NULL, NULL}: not yet initialised */

static struct list_head *wheel_slot(uint64_t tick)
{
	struct list_head *slot = &sleep_wheel[tick % SLEEP_WHEEL];

	if (!slot->next)
		INIT_LIST_HEAD(slot);
	return slot;
}

uint64_t jiffies_read(void)
{
	unsigned long flags = arch_local_irq_save();
	uint64_t j = jiffies;

	arch_local_irq_restore(flags);
	return j;
}

void sched_tick(void)
{
	struct list_head *slot, *pos, *n;

	jiffies++;
	slot = wheel_slot(jiffies);
	list_for_each_safe(pos, n, slot) {
		struct thread *t = list_entry(pos, struct thread, node);

		if (t->wake_tick > jiffies)
			continue;       /* a later turn of the wheel */
		list_del_init(&t->node);
		wake_up_thread(t);
	}
	sched_tick_slice();
}

void sleep_ticks(unsigned int n)
{
	struct thread *me = current;
	unsigned long flags;

	might_sleep();
	flags = arch_local_irq_save();
	me->wake_tick = jiffies + (n ? n : 1);
	list_add_tail(&me->node, wheel_slot(me->wake_tick));
	me->state = THREAD_SLEEPING;
	schedule();
	arch_local_irq_restore(flags);
}

void sleep_ms(unsigned int ms)
{
	sleep_ticks((unsigned int)(((uint64_t)ms * CONFIG_HZ + 999) / 1000));
}
