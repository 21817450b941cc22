/* Violation: a PTE changed (cleaned and drained) with no TLB invalidate,
 * after later walks into the same TLB set evicted its entry from the
 * model's TLB.  An ARM926 whose replacement kept the entry would use it,
 * so the next walk of the VA is the report; the guest itself must see the
 * new page (the emulator keeps Unicorn's translations coherent with the
 * tables), or the program stops on an unmapped read.
 * Expect: stale TLB entry. */
#include "common.h"

#define VA_PG2	(VA_PG + 0x20000)	/* same main-TLB set as VA_PG */
#define VA_PG3	(VA_PG + 0x40000)

test:
	ldr	r6, =VA_SO			/* the old page's and the new page's words */
	ldr	r0, =0x11111111
	str	r0, [r6]
	ldr	r0, =0x22222222
	add	r7, r6, #0x1000
	str	r0, [r7]
	drain
	ldr	r5, =VA_PG
	ldr	r4, =PTE_OF(VA_PG)
	set_pte	r4, SMALL(DATA_PA, WB)
	ldr	r4, =PTE_OF(VA_PG2)
	set_pte	r4, SMALL(DATA_PA + 0x2000, WB)
	ldr	r4, =PTE_OF(VA_PG3)
	set_pte	r4, SMALL(DATA_PA + 0x3000, WB)
	mov	r0, #0
	mcr	p15, 0, r0, c8, c7, 0
	ldr	r0, [r5]			/* VA_PG's entry */
	mcr	p15, 0, r5, c7, c14, 1		/* its D line: the cache is not the point */
	ldr	r1, =VA_PG2
	ldr	r0, [r1]			/* two walks into the set evict it */
	ldr	r1, =VA_PG3
	ldr	r0, [r1]
	ldr	r4, =PTE_OF(VA_PG)
	set_pte	r4, SMALL(DATA_PA + 0x1000, WB)
#ifdef FIXED
	mcr	p15, 0, r5, c8, c7, 1
#endif
	b	1f				/* the machine drops its translations between blocks */
1:	ldr	r0, [r5]
	ldr	r1, =0x22222222
	cmp	r0, r1
	ldrne	r0, =0x0f000000			/* the old page seen: no memory there */
	ldrne	r0, [r0]
	bx	lr
