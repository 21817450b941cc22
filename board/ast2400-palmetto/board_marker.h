/*
 * The switch marker for the scheduler's fast path (lokal/platform.h picks
 * this header up when the board has one). The ASPEED GPIO has no set or
 * clear register: a pin changes by a read of its set's output latch and a
 * write of the set's data register, which the switch path does with
 * interrupts off, so nothing else drives a pin of the set in between.
 */
#ifndef BOARD_MARKER_H
#define BOARD_MARKER_H

#include <stdint.h>
#include <board.h>
#include <drivers/aspeed_gpio.h>

/* What switch_marker_at() needs: the set's data register (see lokal/platform.h). */
static inline uintptr_t switch_marker_base(void)
{
	return BOARD_MARKER_GPIO_BASE;
}

static inline void switch_marker_at(uintptr_t base, int level)
{
	aspeed_gpio_write(base, base + (BOARD_MARKER_GPIO_RDATA - BOARD_MARKER_GPIO_BASE),
			  BOARD_MARKER_PIN, level);
}

static inline void switch_marker_fast(int level)
{
	switch_marker_at(switch_marker_base(), level);
}

#endif
