/*
 * The IRQ handler table and the dispatch a board's interrupt-controller
 * code calls for each pending line. Inline, because it sits on every
 * interrupt's path to the thread it wakes: a call, a range
 * check and a second table walk cost more than the handler often does.
 */
#ifndef ASM_IRQ_DESC_H
#define ASM_IRQ_DESC_H

#include <lokal/irq.h>
#include <board.h>

struct irq_action {
	irq_handler_t handler;
	void *arg;
	unsigned long count;
};

extern struct irq_action irq_table[BOARD_NR_IRQS];

/* A line with no handler (or out of range): masked and reported once. */
void unexpected_irq(unsigned int irq);

/* Run the handler registered for irq and count it. */
static inline void generic_handle_irq(unsigned int irq)
{
	struct irq_action *a;

	if (__builtin_expect(irq >= BOARD_NR_IRQS || !irq_table[irq].handler, 0)) {
		unexpected_irq(irq);
		return;
	}
	a = &irq_table[irq];    /* formed only once irq is known to be in range */
	a->count++;
	a->handler(irq, a->arg);
}

#endif
