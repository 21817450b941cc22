/* Violation: the whole D-cache invalidated (c7,c6,0) while a line is
 * dirty, instead of a test-clean-invalidate loop first.
 * Expect: lost write (invalidate). */
#include "common.h"

test:
	ldr	r4, =VA_A
	ldr	r0, [r4, #64]
	mov	r1, #7
	str	r1, [r4, #64]
#ifdef FIXED
1:	mrc	p15, 0, APSR_nzcv, c7, c14, 3
	bne	1b
#endif
	mov	r0, #0
	mcr	p15, 0, r0, c7, c6, 0
	drain
	bx	lr
