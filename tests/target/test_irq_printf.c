/*
 * Console output is for threads (and the kernel's own WARN/panic): a
 * printf() from an interrupt handler is reported once with a warning
 * naming the interrupted thread, the text still reaches the console, and
 * the system goes on.
 */
#include <stdio.h>
#include <lokal/irq.h>
#include <lokal/bug.h>
#include "ktest.h"

static void irq_prints(unsigned int irq, void *arg)
{
	(void)arg;
	irq_clear_soft(irq);
	printf("printed by the handler\n");
}

static void printf_in_handler_warns_once(void)
{
	unsigned int warns = warn_count;

	request_irq(irq_soft_line(), irq_prints, NULL);
	irq_raise_soft(irq_soft_line());
	KT_ASSERT_EQ(warn_count, warns + 1);
	irq_raise_soft(irq_soft_line());
	KT_ASSERT_EQ(warn_count, warns + 1);
	free_irq(irq_soft_line());
	printf("printed by the thread\n");
}

KTEST_MAIN(KTEST(printf_in_handler_warns_once))
