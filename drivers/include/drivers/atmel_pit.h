/* Atmel PIT (Periodic Interval Timer), AT91SAM9 family. */
#ifndef DRIVERS_ATMEL_PIT_H
#define DRIVERS_ATMEL_PIT_H

#include <stdint.h>

/* Periodic at hz from the PIT clock (MCK/16), interrupt on (it reaches the
 * AIC through the shared system line). */
void atmel_pit_start(uintptr_t base, uint32_t pit_clk_hz, uint32_t hz);
/* Interrupt enable bit on / off, the period kept. */
void atmel_pit_irq_enable(uintptr_t base, int on);
/* Nonzero when a period has elapsed and the interrupt is enabled. */
int atmel_pit_irq_pending(uintptr_t base);
/* Acknowledge; returns how many periods elapsed since the last call. */
uint32_t atmel_pit_ack(uintptr_t base);

#endif
