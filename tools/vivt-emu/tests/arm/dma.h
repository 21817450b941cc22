/*
 * The PL080 of the versatilepb machine, for the DMA rule programs: its
 * registers mapped (strongly ordered) and one memory-to-memory copy of
 * whole words, waited for by polling the raw terminal-count status.
 */
#define PL080		0x10130000
#define DEV_SECTION	0x10100000

	/* Map the device MiB as a correct table update: store, clean, drain, TLB. */
	.macro	map_pl080
	ldr	r1, =SECTION(DEV_SECTION, SO)
	ldr	r2, =L1_PA + ((DEV_SECTION >> 20) << 2)
	str	r1, [r2]
	mcr	p15, 0, r2, c7, c10, 1
	drain
	mcr	p15, 0, r0, c8, c7, 0
	.endm

	/* Channel 0 copies \words words from PA \src to PA \dst; returns when done. */
	.macro	dma_copy src, dst, words
	ldr	r6, =PL080
	mov	r1, #1
	str	r1, [r6, #0x30]			/* controller on */
	ldr	r1, =\src
	str	r1, [r6, #0x100]
	ldr	r1, =\dst
	str	r1, [r6, #0x104]
	mov	r1, #0
	str	r1, [r6, #0x108]		/* no next item */
	ldr	r1, =(\words | (2 << 18) | (2 << 21) | (1 << 26) | (1 << 27) | (1 << 31))
	str	r1, [r6, #0x10c]
	ldr	r1, =(1 | (1 << 15))
	str	r1, [r6, #0x110]		/* go */
1:	ldr	r1, [r6, #0x14]
	tst	r1, #1
	beq	1b
	str	r1, [r6, #0x08]			/* clear it */
	.endm
