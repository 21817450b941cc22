/*
 * A call with a time-out from an IRQ handler is diagnosed even when it
 * would not have had to wait (the queue has room), in every build,
 * naming the call, the handler, its line and the interrupted thread.
 */
#include <lokal/msgqueue.h>
#include <lokal/irq.h>
#include "ktest.h"

DEFINE_MSGQ(q, 16, 4);

static void handler_sends(unsigned int irq, void *arg)
{
	char msg[16] = "from a handler";

	(void)arg;
	irq_clear_soft(irq);
	msgq_send(&q, msg, 10);
}

int app_main(void)
{
	request_irq(irq_soft_line(), handler_sends, NULL);
	irq_raise_soft(irq_soft_line());
	return 0;
}
