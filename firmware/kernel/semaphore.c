/* Counting semaphore; up() and down_trylock() work from IRQ handlers. */
#include <lokal/wait-internal.h>
#include <lokal/mutex.h>
#include <lokal/handle.h>
#include <lokal/timeout.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

void sema_init(struct semaphore *s, int count)
{
	if (!s || count < 0)
		panic("sema_init(%p, %d) in thread '%s': %s", (void *)s, count, current->name,
		      s ? "negative count" : "NULL semaphore");
	s->magic = SEMA_MAGIC;
	s->count = count;
	init_waitqueue(&s->waiters);
}

/*
 * No NULL test, as in up(): a NULL s faults on the magic's load, in the
 * NULL page, and the abort report names the thread and the address.
 * Threads and IRQ handlers only, both in SVC mode: one write masks.
 */
int down_trylock(struct semaphore *s)
{
	unsigned long flags = arch_local_irq_save_svc();
	int left;

	if (__builtin_expect(s->magic != SEMA_MAGIC, 0))
		bad_handle(s, "semaphore", __func__);
	left = s->count - 1;
	if (left >= 0)
		s->count = left;
	arch_local_irq_restore(flags);
	return left < 0;
}

/*
 * A woken waiter takes its unit by re-testing the count, so a unit given
 * while a waiter timed out stays in the count for the next taker.
 */
int down_timeout(struct semaphore *s, long timeout)
{
	unsigned long flags;
	uint64_t deadline;
	int ret = 0;

	might_sleep_timed(timeout, __func__);
	flags = arch_local_irq_save();
	check_handle(s, SEMA_MAGIC, "semaphore");
	if (__builtin_expect(s->count > 0, 1)) {
		s->count--;
		arch_local_irq_restore(flags);
		return 0;
	}
	if (timeout == 0) {
		arch_local_irq_restore(flags);
		return -EAGAIN;
	}
	deadline = timeout_deadline(timeout);
	while (s->count <= 0 && ret == 0)
		ret = sleep_on_deadline(&s->waiters, deadline, false);
	if (ret == 0)
		s->count--;
	arch_local_irq_restore(flags);
	return ret;
}

/* down() found no unit: wait for one. IRQs off on entry, restored here. */
void __down(struct semaphore *s, unsigned long flags)
{
	while (s->count <= 0)
		sleep_on(&s->waiters);
	s->count--;
	arch_local_irq_restore(flags);
}

/*
 * up() found a waiter: wake it, then let it run if it outranks this
 * thread. Apart, so that up() with nobody waiting saves no register.
 */
static void __attribute__((noinline)) __up_wake(struct semaphore *s, unsigned long flags)
{
	/* One section with the count: IRQ handlers call this. */
	__wake_up_first(&s->waiters, s->waiters.waiters.next);
	arch_local_irq_restore(flags);
	/* An IRQ handler's wake-up switches at irq_exit(): asked first. */
	if (!in_irq() && need_resched())
		preempt_schedule();
}

/*
 * Out of line, unlike down(): the path from an interrupt handler to the
 * thread it wakes is the one to keep short, and a call costs less there
 * than the inline wake-up would at every call site.
 */
void up(struct semaphore *s)
{
	unsigned long flags = arch_local_irq_save_svc();        /* threads and IRQ handlers */
	struct list_head *first;

	/*
	 * No NULL test on this path from an interrupt to the thread it wakes:
	 * a NULL s faults on the magic's load, in the NULL page, and the abort
	 * report names the thread, the address and the pc in up().
	 */
	if (__builtin_expect(s->magic != SEMA_MAGIC, 0))
		bad_handle(s, "semaphore", __func__);
	/* list_empty() open-coded, read before the count: GCC then loads both with one LDM. */
	first = s->waiters.waiters.next;
	s->count++;
	if (__builtin_expect(first != &s->waiters.waiters, 0)) {
		__up_wake(s, flags);
		return;
	}
	arch_local_irq_restore(flags);
}
