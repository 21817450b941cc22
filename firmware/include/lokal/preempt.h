/*
 * Context counters, with Linux's names and nesting rules.
 *
 * preempt_count: bits 0-7 count preempt_disable() nesting, bits 16-19 count
 * hard-IRQ nesting. No context switch happens while it is non-zero; a switch
 * requested meanwhile happens at the preempt_enable() that brings it to 0.
 * pagefault_disable() and migrate_disable() count per thread.
 */
#ifndef LOKAL_PREEMPT_H
#define LOKAL_PREEMPT_H

#include <stdbool.h>
#include <stdint.h>
#include <lokal/sched.h>

/* Switch now if a higher-priority thread is ready (preempt_enable() calls it). */
void preempt_schedule(void);

#define PREEMPT_MASK            0x000000ffu
#define HARDIRQ_OFFSET          0x00010000u
#define HARDIRQ_MASK            0x000f0000u

#define __preempt (pcpu_hot.preempt)
#define __preempt_count (__preempt.count)

/* The whole counter: 0 in a thread that may be preempted. */
static inline unsigned int preempt_count(void)
{
	return __preempt_count;
}

/* True inside an interrupt handler. */
static inline bool in_irq(void)
{
	return (__preempt_count & HARDIRQ_MASK) != 0;
}

/* True where a switch must not happen: preemption off or in a handler. */
static inline bool in_atomic(void)
{
	return __preempt_count != 0;
}

/* No switch until the matching preempt_enable(); nests. Interrupts still come. */
static inline void preempt_disable(void)
{
	__preempt_count++;
	__asm__ volatile("" ::: "memory");
}

/*
 * Switch now if a wake-up asked for it and this context may switch; an
 * IRQ handler's wake-up switches at irq_exit() instead. Inline: every
 * wake-up ends with it, and mostly nothing is due.
 */
static inline void preempt_check_resched(void)
{
	uint64_t p = __preempt.both;
	union preempt_state st = { .both = p };

	if (__builtin_expect(st.resched, 0) && !(st.count & HARDIRQ_MASK))
		preempt_schedule();
}

/* Re-enable; if that ends the last atomic section and a switch is due, switch now. */
void preempt_enable(void);

/* Re-enable without switching (used on paths that switch right after). */
static inline void preempt_enable_no_resched(void)
{
	__asm__ volatile("" ::: "memory");
	__preempt_count--;
}

/* kmap_atomic()'s side effect, counted per thread: a fault while disabled is reported. */
void pagefault_disable(void);
void pagefault_enable(void);
bool pagefault_disabled(void);

/* One CPU: counted so an SMP port has its hook and misuse is visible. */
void migrate_disable(void);
void migrate_enable(void);

/*
 * Report (with thread and caller) a call that may sleep made from atomic
 * context: preemption or page faults disabled, or in an IRQ handler.
 */
void __might_sleep(const char *file, int line, void *caller);
/*
 * Report a call that may block (call: its name) made from an IRQ handler,
 * naming the handler, its line and the interrupted thread.
 */
void __might_sleep_in_irq(const char *call) __attribute__((noreturn, cold));
/* The common case (preemptible, faults on) costs two loads and a branch. */
#define might_sleep()                                                           \
	do {                                                                    \
		if (__builtin_expect(in_atomic() || current->pagefault_disabled, 0)) \
			__might_sleep(__FILE__, __LINE__, __builtin_return_address(0)); \
	} while (0)

#endif
