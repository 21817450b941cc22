/* Violation: a PTE changed (cleaned and drained) but its TLB entry not
 * invalidated before the next access through it.
 * Expect: stale TLB entry. */
#include "common.h"

test:
	ldr	r4, =PTE_OF(VA_PG)
	ldr	r5, =VA_PG
	set_pte	r4, SMALL(DATA_PA, WB)
	mcr	p15, 0, r5, c8, c7, 1
	ldr	r0, [r5]			/* entry for DATA_PA */
	mcr	p15, 0, r5, c7, c14, 1		/* the D line of the old page */
	drain
	set_pte	r4, SMALL(DATA_PA + 0x1000, WB)
#ifdef FIXED
	mcr	p15, 0, r5, c8, c7, 1
#endif
	ldr	r0, [r5]
	bx	lr
