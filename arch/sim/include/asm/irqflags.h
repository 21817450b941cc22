/* Host: the CPSR I bit is a variable; the sim has no real interrupts. */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

#include <stdbool.h>

extern bool sim_irqs_off;
/* Interrupts were just unmasked: a pending one would be taken here (asm/sim.h). */
void sim_irq_unmasked(void);

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags = sim_irqs_off;

	sim_irqs_off = true;
	return flags;
}

/* The host has one mode: the same as arch_local_irq_save(). */
static inline unsigned long arch_local_irq_save_svc(void)
{
	return arch_local_irq_save();
}

/* Let a pending interrupt in once: as arch_local_irq_enable(), then masked again. */
static inline void arch_local_irq_window_svc(void)
{
	sim_irqs_off = false;
	sim_irq_unmasked();
	sim_irqs_off = true;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	bool was_off = sim_irqs_off;

	sim_irqs_off = flags != 0;
	if (was_off && !flags)
		sim_irq_unmasked();
}

static inline void arch_local_irq_enable(void)
{
	bool was_off = sim_irqs_off;

	sim_irqs_off = false;
	if (was_off)
		sim_irq_unmasked();
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
