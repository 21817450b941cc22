/* Violation: a line dirtied before a device wrote the same memory is
 * written back after the transfer: the old line lands on the device's data.
 * Expect: write-back over DMA. */
#include "common.h"
#include "dma.h"

test:
	map_pl080
	ldr	r4, =VA_A + 0x80
	ldr	r0, [r4]
	mov	r1, #5
	str	r1, [r4, #4]			/* dirty line over the destination */
#ifdef FIXED
	mcr	p15, 0, r4, c7, c14, 1		/* written back and dropped before the transfer */
	drain
#endif
	dma_copy DATA_PA, DATA_PA + 0x80, 8
	mcr	p15, 0, r4, c7, c10, 1		/* clean: the line goes to memory */
	drain
	bx	lr
	.ltorg
