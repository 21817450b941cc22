/*
 * The switch marker on the scheduler's path (lokal/platform.h): the
 * board's board_marker.h, which every board has, gives switch_marker_base(),
 * switch_marker_at() and switch_marker_fast() as static inlines.
 */
#ifndef ASM_ARM_MARKER_H
#define ASM_ARM_MARKER_H

#include <board_marker.h>

#endif
