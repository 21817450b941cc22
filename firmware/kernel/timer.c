/* The tick: jiffies, the timeouts of sleeping and waiting threads, time slices. */
#include <lokal/thread.h>
#include <lokal/timeout.h>
#include <lokal/timer.h>
#include <lokal/sched-internal.h>
#include <lokal/platform.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

/*
 * Ticks so far, as two words: only the tick writes them (low word first,
 * then a carry into the high one), so a reader that finds the high word
 * unchanged around its read of the low one has a whole value, with no
 * interrupts-off section. Waits compute their deadline that way before
 * they mask interrupts, which keeps that work out of the bounded window.
 */
static volatile uint32_t jiffies_lo, jiffies_hi;

/* The same with interrupts off, where the tick cannot come between the two reads. */
static inline uint64_t jiffies_irqs_off(void)
{
	return (uint64_t)jiffies_hi << 32 | jiffies_lo;
}
/*
 * Threads with a deadline (sleeping, or waiting with a timeout), linked by
 * tnode and hashed by wake tick into a wheel: arming a timeout links a
 * thread in O(1) with interrupts off, where a sorted list made that
 * stretch grow with the number of sleepers; the tick looks at one slot,
 * whose threads are due now or a whole turn later. Within a slot threads
 * stay in the order they were armed, so those due at one tick wake in
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
	uint32_t hi, lo;

	do {
		hi = jiffies_hi;
		lo = jiffies_lo;
	} while (hi != jiffies_hi);
	return (uint64_t)hi << 32 | lo;
}

uint64_t timeout_deadline(long timeout)
{
	if (__builtin_expect(timeout < 0, 0))
		panic("negative timeout %ld in thread '%s'", timeout, current->name);
	return timeout == MAX_SCHEDULE_TIMEOUT ? TIMEOUT_NEVER : jiffies_read() + (uint64_t)timeout;
}

long timeout_remaining(uint64_t deadline)
{
	uint64_t now;

	if (deadline == TIMEOUT_NEVER)
		return MAX_SCHEDULE_TIMEOUT;
	now = jiffies_read();
	return deadline > now ? (long)(deadline - now) : 0;
}

bool timeout_arm(struct thread *t, uint64_t deadline)
{
	if (deadline <= jiffies_irqs_off())
		return false;
	t->wake_tick = deadline;
	list_add_tail(&t->tnode, wheel_slot(deadline));
	return true;
}

/*
 * A deadline reached. Only a thread still waiting is woken: one a waker
 * made ready already (READY, or SUSPENDED by now) has won the race and
 * merely leaves the wheel. A blocked thread leaves its wait queue here.
 */
static void timeout_expire(struct thread *t)
{
	list_del_init(&t->tnode);
	if (t->state == THREAD_BLOCKED) {
		list_del_init(&t->node);
		t->wait_result = -ETIMEDOUT;
		wake_up_thread(t);
	} else if (t->state == THREAD_SLEEPING) {
		wake_up_thread(t);
	}
}

/*
 * The tick's walk over the wheel, in bounded steps of TICK_WALK_BUDGET
 * (lokal/timeout.h). walk_tick is the next tick whose slot to walk;
 * walk_mark, while linked, sits in that slot before the first thread not
 * yet looked at. Normally the walk keeps up, one slot per tick.
 */
static uint64_t walk_tick = 1;
static LIST_HEAD_DECL(walk_mark);

/* Every thread due by now, of the slots not walked yet, up to the budget. */
static void timeouts_walk(uint64_t now)
{
	unsigned int budget = TICK_WALK_BUDGET;

	while (walk_tick <= now && budget) {
		struct list_head *slot = wheel_slot(walk_tick), *pos;

		pos = list_empty(&walk_mark) ? slot->next : walk_mark.next;
		list_del_init(&walk_mark);
		budget--;
		while (pos != slot) {
			struct list_head *next = pos->next;
			struct thread *t = list_entry(pos, struct thread, tnode);

			if (!budget) {
				list_add_tail(&walk_mark, pos);         /* go on from here */
				return;
			}
			budget--;
			if (t->wake_tick <= now)
				timeout_expire(t);      /* else a later turn of the wheel */
			pos = next;
		}
		walk_tick++;
	}
}

void sched_tick(void)
{
	uint64_t jiffies;

	if (++jiffies_lo == 0)
		jiffies_hi++;
	jiffies = jiffies_irqs_off();
	timeouts_walk(jiffies);
	timer_list_tick(jiffies);
	sched_tick_slice();
}

long schedule_timeout(long timeout)
{
	struct thread *me = current;
	unsigned long flags;
	uint64_t deadline;

	might_sleep();
	flags = arch_local_irq_save();
	deadline = timeout_deadline(timeout ? timeout : 1);
	if (deadline != TIMEOUT_NEVER)
		timeout_arm(me, deadline);      /* at least a tick ahead: armed */
	me->state = THREAD_SLEEPING;
	schedule_waiting();
	timeout_disarm(me);             /* woken early (thread_resume of a sleeper) */
	arch_local_irq_restore(flags);
	return 0;
}

void sleep_ticks(unsigned int n)
{
	schedule_timeout((long)n);
}

void sleep_ms(unsigned int ms)
{
	schedule_timeout(msecs_to_jiffies(ms));
}
