/*
 * Thread switching on the host: each thread's context is a ucontext kept
 * at the base of its stack, so the real firmware/kernel scheduler runs
 * unchanged in host tests (interrupts are simulated by calling irq_enter(),
 * the handler and irq_exit() from the running thread).
 */
#include <stdint.h>
#include <stdlib.h>
#include <ucontext.h>
#include <asm/switch_to.h>
#include <lokal/bug.h>

struct sim_context {
	ucontext_t uc;
};

/* The boot thread runs on the process stack; its context lives here. */
static struct sim_context boot_context;

void *arch_thread_init_stack(void *stack, size_t size, void (*entry)(void))
{
	uintptr_t base = ((uintptr_t)stack + 15) & ~(uintptr_t)15;
	struct sim_context *ctx = (struct sim_context *)base;
	size_t used = sizeof(*ctx) + (base - (uintptr_t)stack);

	BUG_ON(size < used + 16384);
	if (getcontext(&ctx->uc) != 0)
		panic("sim: getcontext failed");
	ctx->uc.uc_stack.ss_sp = (char *)stack + used;
	ctx->uc.uc_stack.ss_size = size - used;
	ctx->uc.uc_link = NULL;
	makecontext(&ctx->uc, entry, 0);
	return ctx;
}

void __switch_to(void **prev_sp, void *next_sp)
{
	struct sim_context *prev = *prev_sp ? *prev_sp : &boot_context;

	*prev_sp = prev;
	if (swapcontext(&prev->uc, &((struct sim_context *)next_sp)->uc) != 0)
		panic("sim: swapcontext failed");
}
