/* Host: the CPSR I bit is a variable; the sim has no real interrupts. */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

#include <stdbool.h>

extern bool sim_irqs_off;

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = sim_irqs_off;

	sim_irqs_off = true;
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	sim_irqs_off = flags != 0;
}

static inline void arch_local_irq_enable(void)
{
	sim_irqs_off = false;
}

static inline void arch_local_irq_disable(void)
{
	sim_irqs_off = true;
}

static inline int arch_irqs_disabled(void)
{
	return sim_irqs_off;
}

static inline void arch_cpu_idle(void)
{
}

#endif
