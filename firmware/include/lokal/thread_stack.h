/*
 * Thread stacks, from the architecture: on ARM each one lives in its own
 * stretch of a stack area with an unmapped guard page below it, so the
 * first store past its end faults (and is reported as a stack overflow).
 */
#ifndef LOKAL_THREAD_STACK_H
#define LOKAL_THREAD_STACK_H

#include <stddef.h>

/*
 * A stack of at least *size bytes, or NULL when the pages or the address
 * space run out. *size is rounded up to what the stack really has (whole
 * pages on ARM); the stack grows down from the returned address + *size.
 */
void *alloc_thread_stack(size_t *size);

/* Give back a stack from alloc_thread_stack() with the size it reported. */
void free_thread_stack(void *stack, size_t size);

#endif
