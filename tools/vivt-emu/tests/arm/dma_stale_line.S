/* Violation: a line the CPU read before a device wrote that memory is
 * still cached afterwards, and a load hits it: the device's data is hidden.
 * Expect: stale read after DMA. */
#include "common.h"
#include "dma.h"

test:
	map_pl080
	ldr	r4, =VA_A + 0x80
	ldr	r0, [r4]			/* the destination's line cached */
	dma_copy DATA_PA, DATA_PA + 0x80, 8
#ifdef FIXED
	mcr	p15, 0, r4, c7, c6, 1		/* drop the line the device made old */
#endif
	ldr	r0, [r4]
	bx	lr
	.ltorg
