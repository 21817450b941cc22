/* Violation: a page-table entry written through the write-back D-cache and
 * used by the table walker without a clean: the walker reads memory.
 * Expect: unclean table walk. */
#include "common.h"

test:
	ldr	r4, =PTE_OF(VA_PG)
	ldr	r0, [r4]			/* the table's line is cached */
	ldr	r1, =SMALL(DATA_PA, WB)
	str	r1, [r4]
#ifdef FIXED
	mcr	p15, 0, r4, c7, c10, 1
	drain
#endif
	ldr	r5, =VA_PG
	mcr	p15, 0, r5, c8, c7, 1
	ldr	r0, [r5]			/* TLB miss: walk */
	bx	lr
