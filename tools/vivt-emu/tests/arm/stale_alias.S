/* Violation: a store through one VIVT alias, then a load through another
 * alias whose line was cached before: the load returns the old line even
 * though the value stored equals what was there.
 * Expect: stale read. */
#include "common.h"

test:
	ldr	r4, =VA_A
	ldr	r5, =VA_B
	ldr	r0, [r4]			/* both aliases cached */
	ldr	r0, [r5]
	mov	r1, #0				/* the value memory already holds */
	str	r1, [r4]
#ifdef FIXED
	mcr	p15, 0, r4, c7, c14, 1		/* write A back ... */
	mcr	p15, 0, r5, c7, c6, 1		/* ... and drop B's old copy */
	drain
#endif
	ldr	r0, [r5]
	bx	lr
