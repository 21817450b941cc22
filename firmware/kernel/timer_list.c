/*
 * Software timers (see lokal/timer.h): a list of armed timers by expiry,
 * which the tick only looks at (one compare against the first expiry),
 * and a thread that runs the callbacks.
 */
#include <stdint.h>
#include <lokal/timer.h>
#include <lokal/thread.h>
#include <lokal/wait-internal.h>
#include <lokal/timeout.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

/* Callbacks are small; the 64-bit host test builds (ASan, glibc) need far more. */
#if UINTPTR_MAX > 0xffffffffu
#define TIMER_STACK     (256 * 1024)
#else
#define TIMER_STACK     2048
#endif

static LIST_HEAD_DECL(active);                  /* armed timers, by expires */
static uint64_t next_expiry = TIMEOUT_NEVER;    /* the first one's, for the tick */
static struct wait_queue timer_wq = WAIT_QUEUE_INIT(timer_wq);  /* the timer thread */
static struct wait_queue sync_wq = WAIT_QUEUE_INIT(sync_wq);    /* del_timer_sync() */
static struct thread *timer_thread;            /* set by the thread itself, before any callback */
static bool timer_thread_claimed;               /* some caller of start_thread() creates it */
static struct timer_list *running;              /* whose callback runs now */

static void update_next(void)
{
	next_expiry = list_empty(&active) ? TIMEOUT_NEVER :
		list_first_entry(&active, struct timer_list, entry)->expires;
}

/* IRQs off. */
static void enqueue(struct timer_list *t, uint64_t expires)
{
	struct list_head *pos;

	t->expires = expires;
	list_for_each(pos, &active)
		if (list_entry(pos, struct timer_list, entry)->expires > expires)
			break;
	list_add_tail(&t->entry, pos);
	update_next();
}

static void timer_thread_fn(void *arg)
{
	unsigned long flags = arch_local_irq_save();

	(void)arg;
	timer_thread = current;
	for (;;) {
		struct timer_list *t;
		uint64_t now = jiffies_read();

		if (list_empty(&active) || next_expiry > now) {
			sleep_on(&timer_wq);
			/*
			 * The tick woke this thread, and its IRQ exit switched
			 * here: interrupts are still masked from the vector on.
			 * Let them in before the list work, which would
			 * otherwise lengthen that handler's window.
			 */
			arch_local_irq_restore(flags);
			flags = arch_local_irq_save();
			continue;
		}
		t = list_first_entry(&active, struct timer_list, entry);
		list_del_init(&t->entry);
		if (t->period) {
			uint64_t next = t->expires + t->period;

			if (next <= now)        /* fell behind: skip what was missed */
				next = now + t->period - (now - t->expires) % t->period;
			enqueue(t, next);
		} else {
			update_next();
		}
		running = t;
		arch_local_irq_restore(flags);
		t->function(t);
		flags = arch_local_irq_save();
		running = NULL;
		while (wake_up_locked(&sync_wq))
			;
	}
}

/*
 * The timer thread, started from thread (or boot) context, exactly once:
 * the first caller claims the start with interrupts off, and creates the
 * thread with them on (thread_create() may preempt it). A caller that
 * comes meanwhile, a preempting thread or an IRQ handler, finds the start
 * claimed and goes on: its timer is on the active list, which the thread
 * looks at before it first sleeps.
 */
static void start_thread(const char *call)
{
	unsigned long flags;
	bool mine;

	if (__builtin_expect(timer_thread_claimed, 1))
		return;
	flags = arch_local_irq_save();
	mine = !timer_thread_claimed;
	if (mine && in_irq()) {
		arch_local_irq_restore(flags);
		panic("%s in an IRQ handler (thread '%s') before the timer thread runs: "
		      "timer_setup() or arm a first timer from a thread", call, current->name);
	}
	timer_thread_claimed = true;
	arch_local_irq_restore(flags);
	if (mine && !thread_create("timers", timer_thread_fn, NULL, TIMER_THREAD_PRIO, TIMER_STACK))
		panic("%s: cannot create the timer thread", call);
}

void timer_setup(struct timer_list *timer, void (*fn)(struct timer_list *), unsigned int flags)
{
	if (!timer || !fn || flags)
		panic("timer_setup(%p, %p, 0x%x) in thread '%s': %s", (void *)timer, (void *)fn,
		      flags, current->name,
		      !timer ? "NULL timer" : !fn ? "NULL callback" : "unknown flags");
	INIT_LIST_HEAD(&timer->entry);
	timer->expires = 0;
	timer->period = 0;
	timer->function = fn;
	timer->magic = TIMER_MAGIC;
	start_thread(__func__);
}

/* Arm timer at expires, then every period ticks (0: once); call names the caller in diagnostics. */
static int arm_timer(const char *call, struct timer_list *timer, uint64_t expires, unsigned long period)
{
	unsigned long flags;
	int was;

	start_thread(call);
	flags = arch_local_irq_save();
	if (!timer || timer->magic != TIMER_MAGIC)
		bad_handle(timer, "timer", call);
	if (!timer->function)
		panic("%s(%p) in thread '%s': timer has no callback", call, (void *)timer,
		      current->name);
	was = !list_empty(&timer->entry);
	if (was)
		list_del_init(&timer->entry);
	timer->period = period;
	enqueue(timer, expires);
	arch_local_irq_restore(flags);
	return was;
}

int mod_timer_periodic(struct timer_list *timer, uint64_t expires, unsigned long period)
{
	if (period == 0)
		panic("%s(%p, %llu, 0) in thread '%s': period 0 (mod_timer() arms a timer once)",
		      __func__, (void *)timer, (unsigned long long)expires, current->name);
	return arm_timer(__func__, timer, expires, period);
}

int mod_timer(struct timer_list *timer, uint64_t expires)
{
	return arm_timer(__func__, timer, expires, 0);
}

int del_timer(struct timer_list *timer)
{
	unsigned long flags = arch_local_irq_save();
	int was;

	check_handle(timer, TIMER_MAGIC, "timer");
	was = !list_empty(&timer->entry);
	if (was) {
		list_del_init(&timer->entry);
		update_next();
	}
	arch_local_irq_restore(flags);
	return was;
}

int del_timer_sync(struct timer_list *timer)
{
	unsigned long flags;
	int was;

	might_sleep();
	flags = arch_local_irq_save();
	check_handle(timer, TIMER_MAGIC, "timer");
	if (running == timer && current == timer_thread)
		panic("del_timer_sync(%p) from its own callback: it would wait for itself",
		      (void *)timer);
	was = !list_empty(&timer->entry);
	if (was) {
		list_del_init(&timer->entry);
		update_next();
	}
	while (running == timer)
		sleep_on(&sync_wq);
	arch_local_irq_restore(flags);
	return was;
}

bool timer_pending(const struct timer_list *timer)
{
	check_handle(timer, TIMER_MAGIC, "timer");
	return !list_empty(&timer->entry);
}

void timer_list_tick(uint64_t now)
{
	if (__builtin_expect(next_expiry <= now, 0))
		wake_up_locked(&timer_wq);
}
