/* Violation: the CPU's newest data is still in a dirty D-cache line when
 * a device (the PL080) reads that memory: it copies the old data.
 * Expect: DMA read of stale memory. */
#include "common.h"
#include "dma.h"

test:
	map_pl080
	ldr	r4, =VA_A
	ldr	r0, [r4]			/* line cached (read-allocate) */
	mov	r1, #7
	str	r1, [r4]			/* dirty: memory still has the old word */
#ifdef FIXED
	mcr	p15, 0, r4, c7, c10, 1		/* clean for the device */
	drain
#endif
	dma_copy DATA_PA, DATA_PA + 0x80, 8
	bx	lr
	.ltorg
