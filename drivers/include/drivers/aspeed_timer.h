/*
 * ASPEED AST2400 timer block: eight 32-bit down-counters that reload from
 * their reload register when they reach zero, sharing one control
 * register (four bits per timer). Timers are numbered 1..8 as in the
 * datasheet.
 */
#ifndef DRIVERS_ASPEED_TIMER_H
#define DRIVERS_ASPEED_TIMER_H

#include <stdint.h>
#include <drivers/mmio.h>

/* Counter register of timer n (1..8): 1-3 at 0x00/0x10/0x20, 4-8 from 0x40. */
#define ASPEED_TIMER_REGS(n)    ((n) <= 3 ? ((n) - 1) * 0x10u : 0x40u + ((n) - 4) * 0x10u)

/* Every timer stopped, its interrupt off, clocked from the 1 MHz external clock. */
void aspeed_timer_init(uintptr_t base);

/* aspeed_timer_start() flags. */
#define ASPEED_TIMER_IRQ        1u      /* interrupt at each reload */
#define ASPEED_TIMER_PCLK       2u      /* count at PCLK instead of the 1 MHz external clock */
/*
 * Start timer n counting reload..0, over and over. The clock select is
 * written before the enable, in its own write: QEMU 7.2 stores a control
 * write only after acting on its enable bit, so a combined write computes
 * the first deadline with the previous clock (from 1 MHz to PCLK: 24
 * times late).
 */
void aspeed_timer_start(uintptr_t base, unsigned int n, uint32_t reload, unsigned int flags);
void aspeed_timer_stop(uintptr_t base, unsigned int n);
/* The counter's current value (counts down from reload to 0). */
static inline uint32_t aspeed_timer_count(uintptr_t base, unsigned int n)
{
	return mmio_read32(base + ASPEED_TIMER_REGS(n));
}

#endif
