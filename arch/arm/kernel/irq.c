/*
 * IRQ dispatch: the exception entry calls arm_handle_irq(), the board's
 * interrupt-controller code finds the pending lines and calls
 * generic_handle_irq() for each.
 */
#include <stddef.h>
#include <lokal/irq.h>
#include <lokal/platform.h>
#include <lokal/bug.h>
#include <asm/mach.h>
#include <asm/irq_desc.h>
#include <asm/ptrace.h>
#include <asm/irqflags.h>
#include <board.h>

struct irq_descs irq_descs = {
	.action = {
		[0 ... BOARD_NR_IRQS - 1] = { .handler = unexpected_irq_handler,
					      .name = "unexpected_irq_handler" },
	},
};
static unsigned long spurious_irqs;

void arm_handle_irq(void);

/* Called by the IRQ vector on the interrupted thread's stack. */
void arm_handle_irq(void)
{
	irq_enter();
	board_handle_irq();
	irq_exit();     /* may switch to a thread the handlers woke */
}

void spurious_irq(void)
{
	spurious_irqs++;
}

void unexpected_irq(unsigned int irq)
{
	if (irq < BOARD_NR_IRQS)
		board_irq_mask(irq);
	WARN(1, "unexpected IRQ %u masked", irq);
}

void unexpected_irq_handler(unsigned int irq, void *arg)
{
	(void)arg;
	unexpected_irq(irq);
}

int __request_irq(unsigned int irq, irq_handler_t handler, void *arg, const char *name)
{
	unsigned long flags;

	if (irq >= BOARD_NR_IRQS || !handler)
		return -1;
	flags = arch_local_irq_save();
	if (irq_descs.action[irq].handler != unexpected_irq_handler) {
		arch_local_irq_restore(flags);
		return -1;
	}
	irq_descs.action[irq].handler = handler;
	irq_descs.action[irq].arg = arg;
	irq_descs.action[irq].name = name;
	board_irq_unmask(irq);
	arch_local_irq_restore(flags);
	return 0;
}

void free_irq(unsigned int irq)
{
	unsigned long flags;

	if (irq >= BOARD_NR_IRQS)
		return;
	flags = arch_local_irq_save();
	board_irq_mask(irq);
	irq_descs.action[irq].handler = unexpected_irq_handler;
	irq_descs.action[irq].arg = NULL;
	irq_descs.action[irq].name = "unexpected_irq_handler";
	arch_local_irq_restore(flags);
}

const char *irq_current_handler(unsigned int *line)
{
	*line = irq_descs.running_line;
	return irq_descs.running_line < BOARD_NR_IRQS ? irq_descs.action[irq_descs.running_line].name : NULL;
}

void irq_raise_soft(unsigned int irq)
{
	board_irq_raise_soft(irq);
}

unsigned int irq_soft_line(void)
{
	return board_soft_irq;
}
