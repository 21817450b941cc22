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
#include <asm/ptrace.h>
#include <asm/irqflags.h>
#include <board.h>

struct irq_action {
	irq_handler_t handler;
	void *arg;
	unsigned long count;
};

static struct irq_action irq_table[BOARD_NR_IRQS];
static unsigned long spurious_irqs;

void arm_handle_irq(struct pt_regs *regs);

void arm_handle_irq(struct pt_regs *regs)
{
	(void)regs;
	irq_enter();
	if (board_handle_irq() == 0)
		spurious_irqs++;
	irq_exit();     /* may switch to a thread the handlers woke */
}

void generic_handle_irq(unsigned int irq)
{
	struct irq_action *a = irq < BOARD_NR_IRQS ? &irq_table[irq] : NULL;

	if (!a || !a->handler) {
		board_irq_mask(irq);
		WARN(1, "unexpected IRQ %u masked", irq);
		return;
	}
	a->count++;
	a->handler(irq, a->arg);
}

int request_irq(unsigned int irq, irq_handler_t handler, void *arg)
{
	unsigned long flags;

	if (irq >= BOARD_NR_IRQS || !handler)
		return -1;
	flags = arch_local_irq_save();
	if (irq_table[irq].handler) {
		arch_local_irq_restore(flags);
		return -1;
	}
	irq_table[irq].handler = handler;
	irq_table[irq].arg = arg;
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
	irq_table[irq].handler = NULL;
	irq_table[irq].arg = NULL;
	arch_local_irq_restore(flags);
}

void irq_raise_soft(unsigned int irq)
{
	board_irq_raise_soft(irq);
}

void irq_clear_soft(unsigned int irq)
{
	board_irq_clear_soft(irq);
}

unsigned int irq_soft_line(void)
{
	return board_soft_irq;
}
