/* Initial stack frame of a new thread (matches switch_to.S). */
#include <stdint.h>
#include <string.h>
#include <asm/switch_to.h>

extern void ret_from_thread_start(void);

void *arch_thread_init_stack(void *stack, size_t size, void (*entry)(void))
{
	uint32_t *sp = (uint32_t *)(((uintptr_t)stack + size) & ~(uintptr_t)7);

	sp -= 10;                               /* r4-r12, lr */
	memset(sp, 0, 9 * sizeof(*sp));
	sp[0] = (uint32_t)(uintptr_t)entry;     /* r4, called by ret_from_thread_start */
	sp[9] = (uint32_t)(uintptr_t)ret_from_thread_start;
	return sp;
}
