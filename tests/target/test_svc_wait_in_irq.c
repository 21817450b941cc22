/* A blocking receive from an IRQ handler must be diagnosed, naming the interrupted thread. */
#include <lokal/msgqueue.h>
#include <lokal/irq.h>
#include "ktest.h"

static struct msgqueue q;
static char ring[64];

static void handler(unsigned int irq, void *arg)
{
	char msg[16];

	(void)arg;
	irq_clear_soft(irq);
	msgq_receive(&q, msg, 10);
}

int app_main(void)
{
	msgq_init(&q, ring, 4 * 16, 16);
	request_irq(irq_soft_line(), handler, NULL);
	irq_raise_soft(irq_soft_line());
	return 0;
}
