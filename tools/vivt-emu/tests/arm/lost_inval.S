/* Violation: a dirty line dropped by invalidate (c7,c6,1) instead of
 * clean+invalidate (c7,c14,1): the store never reaches memory.
 * Expect: lost write (invalidate). */
#include "common.h"

test:
	ldr	r4, =VA_A
	ldr	r0, [r4]			/* read-allocate the line */
	mov	r1, #0x55
	str	r1, [r4]			/* now dirty */
#ifdef FIXED
	mcr	p15, 0, r4, c7, c14, 1
#else
	mcr	p15, 0, r4, c7, c6, 1
#endif
	drain
	bx	lr
