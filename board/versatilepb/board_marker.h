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

/*
 * What switch_marker_at() needs (see lokal/platform.h): the GPIO block's
 * base plus the pin's bit. The base's low bits are zero, so that value
 * also has the pin's bit set: it is its own "high" datum, and raising the
 * pin needs no second register.
 */
#define MARKER_BIT      (1u << BOARD_MARKER_PIN)
_Static_assert((BOARD_MARKER_GPIO_BASE & ((8u << BOARD_MARKER_PIN) - 1)) == 0,
	       "the marker's cookie needs the base's bits up to the pin's address bit clear");

static inline uintptr_t switch_marker_base(void)
{
	return BOARD_MARKER_GPIO_BASE + MARKER_BIT;
}

static inline void switch_marker_at(uintptr_t cookie, int level)
{
	volatile uint32_t *data = (volatile uint32_t *)(cookie - MARKER_BIT + (4u << BOARD_MARKER_PIN));

	*data = level ? (uint32_t)cookie : 0;
}

static inline void switch_marker_fast(int level)
{
	switch_marker_at(switch_marker_base(), level);
}

#endif
