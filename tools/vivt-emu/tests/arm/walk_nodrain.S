/* Violation: the PTE's line is cleaned but the write buffer not drained
 * before the walk: the cleaned data is still on its way to memory.
 * Expect: unclean table walk. */
#include "common.h"

test:
	ldr	r4, =PTE_OF(VA_PG)
	ldr	r5, =VA_PG
	ldr	r0, [r4]
	ldr	r1, =SMALL(DATA_PA, WB)
	str	r1, [r4]
	mcr	p15, 0, r4, c7, c10, 1
#ifdef FIXED
	drain
#endif
	mcr	p15, 0, r5, c8, c7, 1
	ldr	r0, [r5]
	bx	lr
