/*
 * Reset entry. Whatever loaded us (QEMU -kernel, OpenOCD, the NOR boot
 * stub) may have left the MMU or caches on: write back and turn them off,
 * give every exception mode its stack, clear .bss, then continue in C.
 */
#include <asm/ptrace.h>

	.section .text.start, "ax"
	.arm
	.global _start
_start:
	msr	cpsr_c, #(MODE_SVC | PSR_I_BIT | PSR_F_BIT)

	/* Write back any dirty lines before the D-cache goes off (c7,c14,3 loop). */
1:	mrc	p15, 0, APSR_nzcv, c7, c14, 3
	bne	1b
	mrc	p15, 0, r0, c1, c0, 0
	bic	r0, r0, #0x0005		/* M, C */
	bic	r0, r0, #0x1000		/* I */
	bic	r0, r0, #0x2000		/* V: low vectors until ours exist */
	mcr	p15, 0, r0, c1, c0, 0
	mov	r0, #0
	mcr	p15, 0, r0, c7, c7, 0	/* invalidate I and D caches */
	mcr	p15, 0, r0, c7, c10, 4	/* drain write buffer */
	mcr	p15, 0, r0, c8, c7, 0	/* invalidate I and D TLBs */

	msr	cpsr_c, #(MODE_UND | PSR_I_BIT | PSR_F_BIT)
	ldr	sp, =__stack_und_top
	msr	cpsr_c, #(MODE_ABT | PSR_I_BIT | PSR_F_BIT)
	ldr	sp, =__stack_abt_top
	msr	cpsr_c, #(MODE_IRQ | PSR_I_BIT | PSR_F_BIT)
	ldr	sp, =__stack_irq_top
	msr	cpsr_c, #(MODE_FIQ | PSR_I_BIT | PSR_F_BIT)
	ldr	sp, =__stack_fiq_top
	msr	cpsr_c, #(MODE_SVC | PSR_I_BIT | PSR_F_BIT)
	ldr	sp, =__stack_svc_top

	ldr	r0, =__bss_start
	ldr	r1, =__bss_end
	mov	r2, #0
2:	cmp	r0, r1
	strlo	r2, [r0], #4
	blo	2b

	bl	arch_setup		/* console, MMU, caches, vectors */
	bl	start_kernel		/* never returns */
3:	b	3b
