/* ARM SP804 dual timer (one half of it per call). */
#ifndef DRIVERS_SP804_H
#define DRIVERS_SP804_H

#include <stdint.h>

/* Start timer `base` (0x00 or 0x20 offset within the block) periodic at clk/hz, IRQ on. */
void sp804_start_periodic(uintptr_t base, uint32_t clk_hz, uint32_t hz);
/* Start a one-shot interrupt after `ticks` timer-clock ticks. */
void sp804_start_oneshot(uintptr_t base, uint32_t ticks);
void sp804_stop(uintptr_t base);
/* Acknowledge the timer's interrupt. */
void sp804_clear_irq(uintptr_t base);
/* Nonzero while the timer's (enabled) interrupt is raised: the two halves share a line. */
int sp804_irq_pending(uintptr_t base);
/* Current down-counter value. */
uint32_t sp804_value(uintptr_t base);

#define SP804_TIMER0    0x00
#define SP804_TIMER1    0x20

#endif
