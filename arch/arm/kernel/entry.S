/*
 * Exception vectors and entry paths.
 *
 * Everything runs in SVC mode. An IRQ saves a struct pt_regs on the
 * interrupted thread's own SVC stack, so preempting from the end of an IRQ
 * is an ordinary __switch_to() from C: the frame stays on the preempted
 * thread's stack until it is switched back in and returns through it.
 * Aborts and undefined instructions are fatal and reported by fault.c.
 */
#include <asm/ptrace.h>

#define FAULT_UND	0
#define FAULT_PABT	1
#define FAULT_DABT	2
#define FAULT_SWI	3
#define FAULT_FIQ	4
#define FAULT_RESET	5

#define SEMIHOSTING_SVC	0x123456

/* Copied to the high-vector page; position independent. */
	.section .vectors, "ax"
	.arm
	.global __vectors
__vectors:
	ldr	pc, .Lv_reset
	ldr	pc, .Lv_und
	ldr	pc, .Lv_swi
	ldr	pc, .Lv_pabt
	ldr	pc, .Lv_dabt
	ldr	pc, .Lv_reset
	ldr	pc, .Lv_irq
	ldr	pc, .Lv_fiq
.Lv_reset:	.word	__vector_reset
.Lv_und:	.word	__vector_und
.Lv_swi:	.word	__vector_swi
.Lv_pabt:	.word	__vector_pabt
.Lv_dabt:	.word	__vector_dabt
.Lv_irq:	.word	__vector_irq
.Lv_fiq:	.word	__vector_fiq

	.text
	.arm

/*
 * IRQ: the return address and SPSR go to the two words below the IRQ
 * stack's top (a fixed address, so SVC mode finds them without a
 * register to carry it), then SVC mode builds the frame: r0-r12 in one
 * store, then sp, lr, pc and SPSR in another. IRQs stay masked until the
 * two words are read back, so a nested IRQ cannot overwrite them
 * (irq_to_woken_thread_ns, irq_round_trip_ns in results.json).
 */
	.global __vector_irq
__vector_irq:
	sub	lr, lr, #4
	str	lr, [sp, #-8]		/* [top-8] = return pc */
	mrs	lr, spsr
	str	lr, [sp, #-4]		/* [top-4] = spsr */
	msr	cpsr_c, #(MODE_SVC | PSR_I_BIT | PSR_F_BIT)
	sub	sp, sp, #S_FRAME_SIZE
	stmia	sp, {r0 - r12}
	ldr	r0, =__stack_irq_top
	ldmdb	r0, {r3, r5}		/* r3 = pc, r5 = spsr */
	add	r1, sp, #S_FRAME_SIZE	/* the interrupted sp */
	mov	r2, lr
	add	r0, sp, #S_SP
	stmia	r0, {r1 - r3, r5}	/* sp, lr, pc, spsr: S_SP .. S_PSR */
	mov	r4, sp			/* r4, r5 callee-saved: they survive a switch, */
	bic	sp, sp, #7		/* so the return needs no load of the frame's spsr */
	bl	arm_handle_irq		/* may switch threads before returning */
	mov	sp, r4
	msr	spsr_cxsf, r5
	ldmia	sp, {r0 - pc}^		/* r0-r12, sp, lr, pc; cpsr = spsr */

/*
 * Fatal exceptions: build the frame on the exception mode's stack with
 * the interrupted mode's banked sp and lr, then report.
 */
	.macro	fatal_entry, kind, lroff
	sub	lr, lr, #\lroff
	sub	sp, sp, #S_FRAME_SIZE
	stmia	sp, {r0 - r12}
	mov	r0, sp
	mrs	r1, spsr
	str	lr, [r0, #S_PC]
	str	r1, [r0, #S_PSR]
	mrs	r2, cpsr
	orr	r3, r1, #(PSR_I_BIT | PSR_F_BIT)
	bic	r3, r3, #0x20		/* never switch into Thumb state */
	and	r4, r3, #MODE_MASK
	cmp	r4, #MODE_USR
	orreq	r3, r3, #MODE_SYS	/* user's banked sp/lr are SYS's */
	msr	cpsr_c, r3
	mov	r4, sp
	mov	r5, lr
	msr	cpsr_c, r2
	str	r4, [r0, #S_SP]
	str	r5, [r0, #S_LR]
	mov	r1, #\kind
	bic	sp, sp, #7
	bl	arm_fatal_exception	/* never returns */
	.endm

/*
 * SWI: the firmware makes no system calls, so the only SVC expected is an
 * ARM semihosting request ("svc 0x123456") that nobody intercepted: no
 * debugger and no QEMU -semihosting on the other side. Answer it with -1
 * so the caller knows (machine_halt() then parks quietly instead of
 * faulting back into itself). Any other SVC is fatal.
 */
	.global __vector_swi
__vector_swi:
	stmdb	sp!, {r1, r2}
	mrs	r1, spsr
	tst	r1, #0x20		/* from Thumb state: not ours */
	ldreq	r1, [lr, #-4]		/* the SVC instruction */
	biceq	r1, r1, #0xff000000
	ldreq	r2, =SEMIHOSTING_SVC
	cmpeq	r1, r2
	ldmia	sp!, {r1, r2}
	bne	__vector_swi_fatal
	mvn	r0, #0
	movs	pc, lr			/* after the SVC; cpsr = spsr */

	.global __vector_und, __vector_pabt, __vector_dabt
	.global __vector_fiq, __vector_reset
__vector_und:	fatal_entry FAULT_UND, 4
__vector_pabt:	fatal_entry FAULT_PABT, 4
__vector_dabt:	fatal_entry FAULT_DABT, 8
__vector_swi_fatal: fatal_entry FAULT_SWI, 4
__vector_fiq:	fatal_entry FAULT_FIQ, 4
__vector_reset:	fatal_entry FAULT_RESET, 0
