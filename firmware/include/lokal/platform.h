/*
 * What the portable kernel needs from the machine below it, implemented by
 * arch/<arch> with the board's drivers (arch/arm + board/<board> on target,
 * arch/sim on the host). Nothing here exposes a register.
 */
#ifndef LOKAL_PLATFORM_H
#define LOKAL_PLATFORM_H

#include <stdint.h>
#include <lokal/preempt.h>

/* Exit status used by panic(); test runners look for it. */
#define PANIC_EXIT_STATUS 3

/* Stop the machine; under QEMU the status becomes the process exit code. */
void machine_halt(int status) __attribute__((noreturn));

/* Free-running time source and its rate (versatilepb: 24 MHz counter). */
uint32_t clock_read(void);
uint32_t clock_hz(void);

/* Start the periodic tick: sched_tick() then runs from IRQ context at hz. */
void tick_start(unsigned int hz);

/*
 * A second, one-shot timer for benchmarks and tests: oneshot_timer_arm()
 * raises oneshot_timer_irq() once, us microseconds later, and returns the
 * delay the timer really counts, in ns (us in its clock's whole ticks);
 * its handler must call oneshot_timer_ack().
 */
unsigned int oneshot_timer_irq(void);
uint32_t oneshot_timer_arm(uint32_t us);
void oneshot_timer_ack(void);

/* Logic-analyzer marker pin: high while a context switch is in progress. */
void switch_marker_set(int level);
/*
 * The same for the scheduler's switch path, from the arch (asm/marker.h;
 * on ARM the board's required board_marker.h gives them as static
 * inlines: one store instead of a call):
 *  switch_marker_fast(level);
 *  switch_marker_at(base, level), the same with base from
 *  switch_marker_base(), which a switch keeps in a register across the
 *  register switch rather than loading it again on the other side.
 */
#include <asm/marker.h>
/* Second marker pin: benchmarks raise it at a wake-up's timer interrupt and
 * drop it when the woken thread runs. */
void wake_marker_set(int level);

/* Console input, filled by the UART's receive interrupt; -1 when empty. */
int console_getc(void);

/* What the console's receive path has seen since boot. */
struct console_rx_stats {
	unsigned long received;         /* bytes taken from the UART */
	unsigned long ring_dropped;     /* of those, lost to a full receive ring */
	unsigned long uart_overruns;    /* UART FIFO overruns (bytes lost before the ring) */
};
void console_rx_get_stats(struct console_rx_stats *st);

/* Drive the switch marker pin (1) or let it float as an input (0); the
 * scheduler's writes cost the same either way. */
void switch_marker_enable(int on);

/* Reset the board; returns only where the board cannot reset itself. */
void machine_reset(void);

/*
 * Called by the arch IRQ entry around every handler. irq_enter() only
 * counts the hard-IRQ level (so nothing switches inside a handler);
 * irq_exit() switches to a thread the handlers woke, if one outranks
 * the interrupted thread and it may be preempted.
 */
static inline void irq_enter(void)
{
	__preempt_count += HARDIRQ_OFFSET;
}

/*
 * The rest of irq_exit(), when the count to leave or the reasons to
 * switch are not zero: a nested exit's accounting (a count left), or the
 * switch the reasons ask for. The stored count still holds this IRQ's
 * level: __irq_exit() stores count itself, so that the interrupts it lets
 * in before a switch cannot switch from a nested frame. It reads the
 * reasons again after those, so they are not an argument (one register
 * move fewer on the way to the woken thread: irq_to_woken_thread_ns).
 */
void __irq_exit(unsigned int count);

/*
 * Inline, so the entry keeps the per-CPU base in a register across the
 * handlers: the common exit, nothing due and the count back to zero, is
 * one 64-bit load of count and reasons, a store and a test, with no
 * call. Every interrupt pays for it (Thread-Metric's interrupt shape:
 * events_interrupt in results.json).
 */
static inline void irq_exit(void)
{
	union preempt_state p = { .both = __preempt.both };

	p.count -= HARDIRQ_OFFSET;
	if (__builtin_expect((p.count | p.resched) != 0, 0))
		__irq_exit(p.count);
	else
		__preempt_count = p.count;
}

/* Called by the tick IRQ. */
void sched_tick(void);

#endif
