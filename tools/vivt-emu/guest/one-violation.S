/*
 * A bare-metal ARM926 program that commits exactly one memory-system
 * violation (chosen by -DCASE=n), or, built with -DFIXED, does the same work
 * with the maintenance that makes it correct.  vivt-emu must report the
 * first and run the second clean.  Exit is by semihosting with status 0, so
 * only the model's verdict (exit 10 with a report) tells them apart.
 *
 * Memory (RAM at PA 0, everything identity mapped except the window):
 *   0x00000000  1 MiB section, code and stack, write-back
 *   0x00100000  1 MiB section, tables and data pages, write-back
 *   0x00800000  coarse table: VA W (0x00800000) and VA V (0x00801000)
 *
 *   CASE 1  remap:     W -> X written, W -> Y without flushing W first (stale read)
 *   CASE 2  invalidate: a dirty line dropped by c7,c6,1 (lost write)
 *   CASE 3  walk:      a PTE written and not cleaned before its walk (unclean walk)
 *   CASE 4  tlb:       a PTE changed, cleaned, but no c8 before the access (stale TLB)
 *   CASE 5  icache:    code rewritten, cleaned, no c7,c5,0 (stale instruction fetch)
 *   CASE 6  alias:     two dirty aliases of one page written back oldest last (lost write)
 */
#define L1		0x00100000
#define L2		0x00104000	/* coarse table for MiB 8 */
#define PAGE_X		0x00110000
#define PAGE_Y		0x00111000
#define CODE_BUF	0x00020000
#define VA_W		0x00800000
#define VA_V		0x00801000
#define SECT_WB		0x00000c1e	/* section, C B, AP 3, domain 0 */
#define COARSE		0x00000011
#define SMALL_WB	0x00000ffe	/* small page, C B, AP 3 in every quarter */

	.text
	.arm
	.global _start
_start:
	msr	cpsr_c, #0xd3
	ldr	sp, =0x00008000

	/* Tables, with the MMU and caches off: memory holds them as written. */
	ldr	r0, =L1
	mov	r1, #0
	mov	r2, #4096
1:	str	r1, [r0], #4
	subs	r2, r2, #1
	bne	1b
	ldr	r0, =L1
	ldr	r1, =SECT_WB
	str	r1, [r0]			/* MiB 0 */
	orr	r1, r1, #0x00100000
	str	r1, [r0, #4]			/* MiB 1 */
	ldr	r1, =(L2 | COARSE)
	str	r1, [r0, #(8 * 4)]		/* MiB 8: the window */
	ldr	r0, =L2
	mov	r1, #0
	mov	r2, #256
2:	str	r1, [r0], #4
	subs	r2, r2, #1
	bne	2b
	ldr	r0, =L2
	ldr	r1, =(PAGE_X | SMALL_WB)
	str	r1, [r0]			/* W -> X */
	str	r1, [r0, #4]			/* V -> X: an alias, for case 6 */

	mov	r0, #0
	mcr	p15, 0, r0, c7, c7, 0		/* invalidate I + D */
	mcr	p15, 0, r0, c8, c7, 0		/* invalidate TLB */
	ldr	r0, =L1
	mcr	p15, 0, r0, c2, c0, 0
	mov	r0, #1
	mcr	p15, 0, r0, c3, c0, 0		/* domain 0: client */
	mrc	p15, 0, r0, c1, c0, 0
	ldr	r1, =0x100d			/* M, C, W(bit 3), I */
	orr	r0, r0, r1
	mcr	p15, 0, r0, c1, c0, 0
	nop
	nop

	bl	the_case
	/* Exit 0 through semihosting; the block is cleaned for the debugger. */
	ldr	r1, =exit_block
	mcr	p15, 0, r1, c7, c10, 1
	mov	r0, #0
	mcr	p15, 0, r0, c7, c10, 4
	mov	r0, #0x20
	svc	0x123456
3:	b	3b

/* Write the PTE at r0 (VA == PA, cacheable) as the kernel does, keeping or
 * skipping the clean + drain; then drop the TLB entry for r2. */
	.macro	set_pte clean=1, tlb=1
	str	r1, [r0]
	.if \clean
	mcr	p15, 0, r0, c7, c10, 1
	mov	r3, #0
	mcr	p15, 0, r3, c7, c10, 4
	.endif
	.if \tlb
	mcr	p15, 0, r2, c8, c7, 1		/* invalidate TLB entry by MVA */
	.endif
	.endm

/* Clean + invalidate the 128 lines of the page at r0. */
flush_page:
	add	r1, r0, #4096
1:	mcr	p15, 0, r0, c7, c14, 1
	add	r0, r0, #32
	cmp	r0, r1
	blo	1b
	mov	r0, #0
	mcr	p15, 0, r0, c7, c10, 4
	bx	lr

the_case:
	push	{r4-r6, lr}
	ldr	r4, =VA_W
	ldr	r5, =0x5a5a0001
#if CASE == 1
	str	r5, [r4]			/* W -> X: dirty line under VA W */
	ldr	r6, [r4]
#ifdef FIXED
	mov	r0, r4
	bl	flush_page
#endif
	ldr	r0, =L2
	ldr	r1, =(PAGE_Y | SMALL_WB)
	mov	r2, r4
	set_pte
	ldr	r6, [r4]			/* must read Y, not X's line */
#elif CASE == 2
	str	r5, [r4]
	ldr	r6, [r4]			/* the line is allocated (read-allocate) */
	str	r5, [r4, #4]			/* and dirty */
#ifdef FIXED
	mcr	p15, 0, r4, c7, c14, 1		/* clean + invalidate */
#else
	mcr	p15, 0, r4, c7, c6, 1		/* invalidate: the write is lost */
#endif
	mov	r0, #0
	mcr	p15, 0, r0, c7, c10, 4
#elif CASE == 3
	ldr	r0, =L2
	ldr	r1, =(PAGE_Y | SMALL_WB)
	mov	r2, r4
	ldr	r6, [r0]			/* the PTE's line is in the D-cache */
#ifdef FIXED
	set_pte clean=1
#else
	set_pte clean=0
#endif
	ldr	r6, [r4]			/* the walk reads memory */
#elif CASE == 4
	ldr	r6, [r4]			/* W -> X in the TLB */
	mov	r0, r4
	bl	flush_page
	ldr	r0, =L2
	ldr	r1, =(PAGE_Y | SMALL_WB)
	mov	r2, r4
#ifdef FIXED
	set_pte tlb=1
#else
	set_pte tlb=0
#endif
	ldr	r6, [r4]			/* through the old translation? */
#elif CASE == 5
	ldr	r0, =CODE_BUF
	ldr	r1, =0xe3a00001			/* mov r0, #1 */
	ldr	r2, =0xe12fff1e			/* bx lr */
	stmia	r0, {r1, r2}
	mcr	p15, 0, r0, c7, c10, 1
	mov	r3, #0
	mcr	p15, 0, r3, c7, c10, 4
	mcr	p15, 0, r3, c7, c5, 0
	blx	r0				/* the I-cache now holds it */
	ldr	r0, =CODE_BUF
	ldr	r1, =0xe3a00002			/* mov r0, #2 */
	str	r1, [r0]
	mcr	p15, 0, r0, c7, c10, 1
	mov	r3, #0
	mcr	p15, 0, r3, c7, c10, 4
#ifdef FIXED
	mcr	p15, 0, r3, c7, c5, 0
#endif
	blx	r0
#elif CASE == 6
	ldr	r6, =VA_V
	ldr	r0, [r4]			/* both aliases allocate the line */
	ldr	r0, [r6]
	str	r5, [r4]			/* older data through W */
#ifdef FIXED
	mcr	p15, 0, r4, c7, c14, 1		/* W written back and dropped first */
	mcr	p15, 0, r6, c7, c6, 1		/* V's copy is stale now: drop it */
#endif
	add	r5, r5, #1
	str	r5, [r6]			/* newer data through V */
	mcr	p15, 0, r6, c7, c14, 1		/* V written back */
	mcr	p15, 0, r4, c7, c14, 1		/* then W: older data on top */
	mov	r0, #0
	mcr	p15, 0, r0, c7, c10, 4
#else
#error CASE must be 1 to 6
#endif
	pop	{r4-r6, pc}

	.ltorg
	.data
	.balign	32
exit_block:
	.word	0x20026, 0
