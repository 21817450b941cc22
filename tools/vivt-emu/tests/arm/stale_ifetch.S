/* Violation: code rewritten, cleaned and drained to memory, but the
 * I-cache not invalidated: the old instruction runs.
 * Expect: stale instruction fetch. */
#include "common.h"

test:
	mov	r11, lr
	ldr	r4, =CODE_BUF
	ldr	r1, =0xe3a00001			/* mov r0, #1 */
	ldr	r2, =0xe12fff1e			/* bx lr */
	str	r1, [r4]
	str	r2, [r4, #4]
	mcr	p15, 0, r4, c7, c10, 1
	drain
	mcr	p15, 0, r0, c7, c5, 0
	blx	r4				/* the I-cache now holds it */
	ldr	r1, =0xe3a00002			/* mov r0, #2 */
	str	r1, [r4]
	mcr	p15, 0, r4, c7, c10, 1
	drain
#ifdef FIXED
	mcr	p15, 0, r0, c7, c5, 0
#endif
	blx	r4
	bx	r11
