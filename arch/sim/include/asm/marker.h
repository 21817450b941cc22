/*
 * The switch marker on the scheduler's path (lokal/platform.h): the host
 * has no pin, so each form calls switch_marker_set().
 */
#ifndef ASM_SIM_MARKER_H
#define ASM_SIM_MARKER_H

#include <stdint.h>

void switch_marker_set(int level);

static inline uintptr_t switch_marker_base(void)
{
	return 0;
}

static inline void switch_marker_at(uintptr_t base, int level)
{
	(void)base;
	switch_marker_set(level);
}

static inline void switch_marker_fast(int level)
{
	switch_marker_set(level);
}

#endif
