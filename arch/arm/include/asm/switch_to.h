/*
 * Thread context: callee-saved registers pushed on the thread's own stack;
 * the thread structure keeps only the stack pointer.
 */
#ifndef ASM_SWITCH_TO_H
#define ASM_SWITCH_TO_H

#include <stddef.h>

/* Save callee-saved state on the current stack into *prev_sp, resume next_sp. */
void __switch_to(void **prev_sp, void *next_sp);

#ifdef __arm__
/*
 * The scheduler's switch: __switch_to() written into its caller. The frame
 * is the same (r4-r12, then the address to resume at), so either resumes a
 * context the other saved; the thread switched to resumes wherever it
 * left, with its own r4-r11, so only the scratch registers are lost. Inline
 * assembly because C has no way to save a resume address: it spares the
 * call, the return and the argument moves, two instructions per switch.
 */
static inline __attribute__((always_inline)) void arch_switch_to(void **prev_sp, void *const *next_sp)
{
	__asm__ volatile(
		"adr	lr, 1f\n\t"
		"stmfd	sp!, {r4 - r12, lr}\n\t"
		"str	sp, %0\n\t"
		"ldr	sp, %1\n\t"
		"ldmfd	sp!, {r4 - r12, pc}\n"
		"1:"
		: "=m"(*prev_sp)
		: "m"(*next_sp)
		: "r0", "r1", "r2", "r3", "ip", "lr", "memory", "cc");
}
#else
/* The host model switches through its own __switch_to(). */
#define arch_switch_to(prev_sp, next_sp) __switch_to(prev_sp, *(next_sp))
#endif

/*
 * Build the first frame of a new context on its stack so that the first
 * __switch_to() into it calls entry() (which must not return), with
 * interrupts as the switching thread had them. Returns the saved sp.
 */
void *arch_thread_init_stack(void *stack, size_t size, void (*entry)(void));

#endif
