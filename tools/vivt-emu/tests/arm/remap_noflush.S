/* Violation: a kmap-style slot reused for another page without flushing
 * its lines first: the VIVT cache still holds the old page's data under
 * the same VA, and the next read through the slot hits it.
 * Expect: stale read. */
#include "common.h"

test:
	ldr	r4, =PTE_OF(VA_PG)
	ldr	r5, =VA_PG
	set_pte	r4, SMALL(DATA_PA, WB)		/* slot -> page A */
	mcr	p15, 0, r5, c8, c7, 1
	ldr	r0, [r5, #32]			/* a line of page A */
	mov	r1, #9
	str	r1, [r5, #32]
#ifdef FIXED
	add	r6, r5, #32			/* flush the slot's line */
	mcr	p15, 0, r6, c7, c14, 1
	drain
#endif
	set_pte	r4, SMALL(DATA_PA + 0x2000, WB)	/* slot -> page B */
	mcr	p15, 0, r5, c8, c7, 1
	ldr	r0, [r5, #32]			/* page B's word, or A's line */
	bx	lr
