/* Interrupt handlers for drivers, tests and benchmarks. */
#ifndef LOKAL_IRQ_H
#define LOKAL_IRQ_H

typedef void (*irq_handler_t)(unsigned int irq, void *arg);

/* Install handler for irq and unmask it; returns 0, or -1 if taken or out of range. */
int request_irq(unsigned int irq, irq_handler_t handler, void *arg);
void free_irq(unsigned int irq);

/* A line reserved for software-raised interrupts on this board. */
unsigned int irq_soft_line(void);

/*
 * irq_raise_soft(irq): raise a line from software; its handler runs as a
 * real interrupt, and drops it with irq_clear_soft(irq). Both are inline
 * in <asm/irq.h>.
 */
#include <asm/irq.h>

#endif
