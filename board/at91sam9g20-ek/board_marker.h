/*
 * The switch marker as an inline store, for the scheduler's fast path
 * (lokal/platform.h picks this header up when the board has one): the
 * PIO's set and clear registers change the pin with one store, so the
 * switch need not call switch_marker_set() twice with interrupts off.
 */
#ifndef BOARD_MARKER_H
#define BOARD_MARKER_H

#include <board.h>
#include <drivers/atmel_pio.h>

/* What switch_marker_at() needs: the PIO controller's base (see lokal/platform.h). */
static inline uintptr_t switch_marker_base(void)
{
	return BOARD_MARKER_GPIO_BASE;
}

static inline void switch_marker_at(uintptr_t base, int level)
{
	atmel_pio_write(base, BOARD_MARKER_PIN, level);
}

static inline void switch_marker_fast(int level)
{
	switch_marker_at(switch_marker_base(), level);
}

#endif
