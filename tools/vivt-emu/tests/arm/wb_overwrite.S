/* Violation: two dirty aliases of one PA; the older one is written back
 * last and overwrites the newer data in memory.
 * Expect: lost write (write-back). */
#include "common.h"

test:
	ldr	r4, =VA_A
	ldr	r5, =VA_B
	ldr	r0, [r4]
	ldr	r0, [r5]
	mov	r1, #1
	str	r1, [r4]			/* A dirty */
#ifdef FIXED
	mcr	p15, 0, r4, c7, c14, 1		/* A to memory before B is used */
	mcr	p15, 0, r5, c7, c6, 1		/* B's copy is old: drop it */
	drain
#endif
	mov	r1, #2
	str	r1, [r5]			/* B dirty (or, fixed, a write miss) */
	mcr	p15, 0, r5, c7, c10, 1
	drain					/* memory: 2 */
	mcr	p15, 0, r4, c7, c10, 1
	drain					/* violation: memory back to 1 */
	bx	lr
