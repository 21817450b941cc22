/*
 * The heap's lock is a mutex: malloc() from an interrupt handler is
 * diagnosed, naming the thread it interrupted, instead of corrupting the
 * heap under a thread that was inside it.
 */
#include <stdlib.h>
#include <lokal/irq.h>
#include <lokal/app.h>

static void *volatile got;

static void irq_allocates(unsigned int irq, void *arg)
{
	(void)arg;
	irq_clear_soft(irq);
	got = malloc(16);
}

int app_main(void)
{
	request_irq(irq_soft_line(), irq_allocates, NULL);
	irq_raise_soft(irq_soft_line());
	free_irq(irq_soft_line());
	free(got);
	return 0;
}
