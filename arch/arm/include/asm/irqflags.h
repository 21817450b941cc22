/* CPSR I-bit control for ARMv5 (no cpsid/cpsie before ARMv6). */
#ifndef ASM_IRQFLAGS_H
#define ASM_IRQFLAGS_H

#include <asm/ptrace.h>

static inline unsigned long arch_local_irq_save(void)
{
	unsigned long flags, tmp;

	__asm__ volatile("mrs %0, cpsr\n\t"
			 "orr %1, %0, #0x80\n\t"
			 "msr cpsr_c, %1"
			 : "=r"(flags), "=r"(tmp) : : "memory", "cc");
	return flags;
}

static inline void arch_local_irq_restore(unsigned long flags)
{
	__asm__ volatile("msr cpsr_c, %0" : : "r"(flags) : "memory", "cc");
}

static inline void arch_local_irq_enable(void)
{
	unsigned long tmp;

	__asm__ volatile("mrs %0, cpsr\n\t"
			 "bic %0, %0, #0x80\n\t"
			 "msr cpsr_c, %0"
			 : "=r"(tmp) : : "memory", "cc");
}

static inline void arch_local_irq_disable(void)
{
	(void)arch_local_irq_save();
}

static inline int arch_irqs_disabled(void)
{
	unsigned long flags;

	__asm__ volatile("mrs %0, cpsr" : "=r"(flags));
	return (flags & PSR_I_BIT) != 0;
}

/* Wait for an interrupt (ARM926: CP15 c7, c0, 4). */
static inline void arch_cpu_idle(void)
{
	__asm__ volatile("mcr p15, 0, %0, c7, c0, 4" : : "r"(0) : "memory");
}

#endif
