/*
 * Shared start-up for the emulator's own ARM test programs.  Each program
 * commits exactly one cache, write-buffer, TLB or I-cache violation; built
 * with -DFIXED it is the corrected twin, which must run clean.
 *
 * Memory (versatilepb RAM at PA 0; VAs stay inside the 128 MiB the
 * emulator maps, because Unicorn checks the VA before translating):
 *   VA 0-16 MiB  identity, write-back         code, tables, buffers
 *   VA_A, VA_B   two write-back aliases of DATA_PA (1 MiB sections)
 *   VA_SO        a strongly ordered view of DATA_PA
 *   VA_PG        small pages from the coarse table at L2_PA (empty)
 */
#define L1_PA		0x00004000
#define L2_PA		0x00008000
#define DATA_PA		0x00100000
#define CODE_BUF	0x00200000
#define VA_A		0x02000000
#define VA_B		0x03000000
#define VA_SO		0x05000000
#define VA_PG		0x04000000

#define SECTION(pa, cb)	(((pa) & 0xfff00000) | (3 << 10) | ((cb) << 2) | 2)
#define SMALL(pa, cb)	(((pa) & 0xfffff000) | (0xff << 4) | ((cb) << 2) | 2)
#define PTE_OF(va)	(L2_PA + ((((va) >> 12) & 0xff) << 2))
#define WB		3	/* C and B: write-back */
#define SO		0	/* neither: strongly ordered */

	.macro	map_section va, pa, cb
	ldr	r1, =SECTION(\pa, \cb)
	ldr	r2, =L1_PA + ((\va >> 20) << 2)
	str	r1, [r2]
	.endm

	.macro	drain
	mov	r0, #0
	mcr	p15, 0, r0, c7, c10, 4
	.endm

	/* The correct PTE update: store, clean its line, drain. */
	.macro	set_pte ptep, val
	ldr	r1, =\val
	str	r1, [\ptep]
	mcr	p15, 0, \ptep, c7, c10, 1
	drain
	.endm

	.text
	.arm
	.global	_start
	.type	_start, %function
	.type	test, %function		/* each program defines it */
_start:
	/* MMU off: every store is strongly ordered, so the tables written
	 * here are in memory before the MMU comes on. */
	ldr	r0, =L1_PA
	ldr	r2, =L2_PA + 0x400
	mov	r1, #0
1:	str	r1, [r0], #4
	cmp	r0, r2
	blo	1b
	ldr	r0, =L1_PA
	ldr	r1, =SECTION(0, WB)
	mov	r2, #0
2:	orr	r3, r1, r2, lsl #20
	str	r3, [r0, r2, lsl #2]
	add	r2, r2, #1
	cmp	r2, #16
	blo	2b
	map_section VA_A, DATA_PA, WB
	map_section VA_B, DATA_PA, WB
	map_section VA_SO, DATA_PA, SO
	ldr	r1, =L2_PA | (1 << 4) | 1
	ldr	r2, =L1_PA + ((VA_PG >> 20) << 2)
	str	r1, [r2]

	ldr	r0, =L1_PA
	mcr	p15, 0, r0, c2, c0, 0
	mvn	r0, #0
	mcr	p15, 0, r0, c3, c0, 0		/* all domains: manager */
	mov	r0, #0
	mcr	p15, 0, r0, c8, c7, 0
	mcr	p15, 0, r0, c7, c7, 0
	mrc	p15, 0, r0, c1, c0, 0
	orr	r0, r0, #0x5			/* M, C */
	orr	r0, r0, #0x1000			/* I */
	mcr	p15, 0, r0, c1, c0, 0
	bl	test

	/* Semihosting SYS_EXIT, "application exit": status 0. */
	mov	r0, #0x18
	ldr	r1, =0x20026
	svc	0x123456
3:	b	3b
	.ltorg
