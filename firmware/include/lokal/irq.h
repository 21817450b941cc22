/* Interrupt handlers for drivers, tests and benchmarks. */
#ifndef LOKAL_IRQ_H
#define LOKAL_IRQ_H

typedef void (*irq_handler_t)(unsigned int irq, void *arg);

/*
 * Install handler for irq and unmask it; returns 0, or -1 if taken or out
 * of range. The handler's C name is kept for diagnostics.
 */
#define request_irq(irq, handler, arg) __request_irq(irq, handler, arg, #handler)
int __request_irq(unsigned int irq, irq_handler_t handler, void *arg, const char *name);
void free_irq(unsigned int irq);

/*
 * In an IRQ handler: its name as request_irq() was given it, with *line
 * its line; NULL where the platform cannot tell (a simulated interrupt).
 */
const char *irq_current_handler(unsigned int *line);

/* A line reserved for software-raised interrupts on this board. */
unsigned int irq_soft_line(void);

/*
 * irq_raise_soft(irq): raise a line from software; its handler runs as a
 * real interrupt, and drops it with irq_clear_soft(irq). Both are inline
 * in <asm/irq.h>.
 */
#include <asm/irq.h>

/*
 * local_irq_save() masks interrupts and returns the previous state, which
 * local_irq_restore() puts back (Linux's pair, as functions): for an
 * application's few instructions that an interrupt must not split, such
 * as reading a clock and driving a pin for the same instant.
 */
#include <asm/irqflags.h>
static inline unsigned long local_irq_save(void) { return arch_local_irq_save(); }
static inline void local_irq_restore(unsigned long flags) { arch_local_irq_restore(flags); }

#endif
