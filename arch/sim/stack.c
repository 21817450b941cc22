/*
 * Thread stacks on the host: plain heap blocks (the host tests check the
 * scheduler, not the MMU's guard pages, which arch/arm/mm/stack.c gives).
 */
#include <stdlib.h>
#include <lokal/thread_stack.h>

void *alloc_thread_stack(size_t *size)
{
	return malloc(*size);
}

void free_thread_stack(void *stack, size_t size)
{
	(void)size;
	free(stack);
}
