/*
 * The IRQ handler table and the dispatch a board's interrupt-controller
 * code calls for each pending line. Inline, because it sits on every
 * interrupt's path to the thread it wakes: a call, a range
 * check and a second table walk cost more than the handler often does.
 * A free line's slot holds a handler that reports it, so the dispatch has
 * no NULL test.
 */
#ifndef ASM_IRQ_DESC_H
#define ASM_IRQ_DESC_H

#include <lokal/irq.h>
#include <board.h>

/*
 * 16 bytes, a slot is found with one shift; in this order, the dispatch
 * reads the two fields it needs with one load multiple (irq_to_woken_thread_ns,
 * events_interrupt in results.json).
 */
struct irq_action {
	void *arg;
	irq_handler_t handler;  /* never NULL: unexpected_irq_handler() when free */
	const char *name;       /* the handler's C name, for diagnostics */
	unsigned long unused;
};

struct irq_descs {
	struct irq_action action[BOARD_NR_IRQS];
	/*
	 * The line whose handler runs (or ran last): what
	 * irq_current_handler() reports. Beside the table, so the dispatch
	 * reaches both from one base register (one load fewer per IRQ).
	 */
	unsigned int running_line;
};
extern struct irq_descs irq_descs;

/* A line with no handler (or out of range): masked and reported once. */
void unexpected_irq(unsigned int irq);
/* What a free line's slot holds: unexpected_irq() as a handler. */
void unexpected_irq_handler(unsigned int irq, void *arg);

/*
 * Run the handler registered for irq (< BOARD_NR_IRQS), noting the line
 * for a diagnostic the handler may cause. No test for a missing handler:
 * a free slot holds unexpected_irq_handler().
 */
static inline void __generic_handle_irq(unsigned int irq)
{
	struct irq_action *a = &irq_descs.action[irq];

	irq_descs.running_line = irq;
	a->handler(irq, a->arg);
}

/* The same for any irq: one out of range is reported as unexpected. */
static inline void generic_handle_irq(unsigned int irq)
{
	if (__builtin_expect(irq >= BOARD_NR_IRQS, 0)) {
		unexpected_irq(irq);
		return;
	}
	__generic_handle_irq(irq);
}

#endif
