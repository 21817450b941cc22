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

static inline void switch_marker_fast(int level)
{
	atmel_pio_write(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_PIN, level);
}

#endif
