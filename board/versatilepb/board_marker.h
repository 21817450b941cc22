/*
 * The switch marker as an inline store, for the scheduler's fast path
 * (lokal/platform.h picks this header up when the board has one). A PL061
 * data register is masked by address bits [9:2]: one store to
 * base + (1 << (pin + 2)) sets or clears that pin alone, with no
 * read-modify-write and no call.
 */
#ifndef BOARD_MARKER_H
#define BOARD_MARKER_H

#include <stdint.h>
#include <board.h>

/* What switch_marker_at() needs: the GPIO block's base (see lokal/platform.h). */
static inline uintptr_t switch_marker_base(void)
{
	return BOARD_MARKER_GPIO_BASE;
}

static inline void switch_marker_at(uintptr_t base, int level)
{
	*(volatile uint32_t *)(base + (4u << BOARD_MARKER_PIN)) = level ? 1u << BOARD_MARKER_PIN : 0;
}

static inline void switch_marker_fast(int level)
{
	switch_marker_at(switch_marker_base(), level);
}

#endif
