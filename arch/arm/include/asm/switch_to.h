/*
 * Thread context: callee-saved registers pushed on the thread's own stack;
 * the thread structure keeps only the stack pointer.
 */
#ifndef ASM_SWITCH_TO_H
#define ASM_SWITCH_TO_H

#include <stddef.h>

/* Save callee-saved state on the current stack into *prev_sp, resume next_sp. */
void __switch_to(void **prev_sp, void *next_sp);

/*
 * Build the first frame of a new context on its stack so that the first
 * __switch_to() into it calls entry() (which must not return), with
 * interrupts as the switching thread had them. Returns the saved sp.
 */
void *arch_thread_init_stack(void *stack, size_t size, void (*entry)(void));

#endif
