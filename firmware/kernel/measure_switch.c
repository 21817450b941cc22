/*
 * The floor under every switch: the arch's register switch between two
 * raw contexts, with no scheduler around it.
 */
#include <lokal/measure.h>
#include <lokal/platform.h>
#include <lokal/sched.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>
#include <asm/switch_to.h>

static void *floor_main_sp, *floor_peer_sp;
static uint8_t floor_stack[1024] __attribute__((aligned(8)));

static void floor_peer(void)
{
	for (;;)
		__switch_to(&floor_peer_sp, floor_main_sp);
}

uint32_t measure_register_switch(unsigned int iters)
{
	uint32_t t0;

	if (!arch_irqs_disabled())
		panic("measure_register_switch(%u) in thread '%s': interrupts are on; an interrupt "
		      "would switch threads from a raw context (mask them with local_irq_save())",
		      iters, current->name);
	floor_peer_sp = arch_thread_init_stack(floor_stack, sizeof(floor_stack), floor_peer);
	__switch_to(&floor_main_sp, floor_peer_sp);     /* warm up */
	t0 = clock_read();
	for (unsigned int i = 0; i < iters; i++)
		__switch_to(&floor_main_sp, floor_peer_sp);
	return clock_read() - t0;
}
