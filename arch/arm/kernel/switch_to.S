/*
 * Thread switch. Only callee-saved registers need saving: the caller
 * (schedule()) is a C function, and an interrupted thread's scratch
 * registers are already in its IRQ frame. Ten words keep the stack 8-byte
 * aligned.
 */
	.text
	.arm

/* void __switch_to(void **prev_sp, void *next_sp) */
	.global __switch_to
__switch_to:
	stmfd	sp!, {r4 - r12, lr}
	str	sp, [r0]
	mov	sp, r1
	ldmfd	sp!, {r4 - r12, pc}

/* First "return" into a new context: call its entry (in r4). */
	.global ret_from_thread_start
ret_from_thread_start:
	blx	r4			/* never returns */
1:	b	1b
