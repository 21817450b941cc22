/*
 * The software-raised lines of <lokal/irq.h>: a handler drops its line on
 * the way to the thread it wakes, inline down to the board's store.
 */
#ifndef ASM_IRQ_H
#define ASM_IRQ_H

#include <asm/mach.h>

/*
 * Out of line, one call: a caller may count on the interrupt having been
 * taken when this returns (with the line unmasked and IRQs on). The store
 * reaches the controller at once, but the core takes the interrupt at an
 * instruction boundary a little later: QEMU at the end of its translation
 * block, which the return is, where an inline store would let the
 * caller's next instructions run first.
 */
void irq_raise_soft(unsigned int irq);

static inline void irq_clear_soft(unsigned int irq)
{
	board_irq_clear_soft(irq);
}

#endif
