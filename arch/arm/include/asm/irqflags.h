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

/*
 * The same for code that runs in SVC mode only: threads, and IRQ handlers
 * (the vector runs them in SVC mode), never the abort or undefined
 * handlers' reports. SVC mode, ARM state and FIQs masked are then known,
 * so masking is one write instead of a read, an OR and a write. The
 * yield, down() and up() use it (yield_no_maps_ns, events_synchronization,
 * events_message, events_memory in results.json).
 */
static inline unsigned long arch_local_irq_save_svc(void)
{
	unsigned long flags;

	__asm__ volatile("mrs %0, cpsr\n\t"
			 "msr cpsr_c, %1"
			 : "=&r"(flags) : "i"(MODE_SVC | PSR_F_BIT | PSR_I_BIT) : "memory", "cc");
	return flags;
}

/*
 * Let pending interrupts in once, in SVC mode as above, interrupts
 * off on entry and on return: two writes of known values, with one
 * instruction boundary between them where a pending IRQ is taken.
 */
static inline void arch_local_irq_window_svc(void)
{
	__asm__ volatile("msr cpsr_c, %0\n\t"
			 "msr cpsr_c, %1"
			 : : "i"(MODE_SVC | PSR_F_BIT), "i"(MODE_SVC | PSR_F_BIT | PSR_I_BIT)
			 : "memory", "cc");
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

/*
 * Wait for an interrupt in the ARM926's low-power standby (CP15 c7, c0, 4;
 * ARM926EJ-S TRM, "Wait for interrupt"), the sequence of Linux's
 * cpu_arm926_do_idle:
 *  - drain the write buffer first, so buffered stores reach memory (and
 *    devices) before the core stops rather than whenever it wakes;
 *  - keep the I-cache off across the wait, IRQs and FIQs masked meanwhile
 *    so no handler (nor a thread it switches to) runs with it off; the
 *    control register is restored after.
 * The core leaves the wait on a pending interrupt even while it is masked;
 * with the caller's IRQ state back, an enabled IRQ is then taken.
 */
static inline void arch_cpu_idle(void)
{
	unsigned long zero = 0, cr, cr_noi, psr, psr_masked;

	__asm__ volatile("mrc	p15, 0, %[cr], c1, c0, 0\n\t"
			 "mcr	p15, 0, %[zero], c7, c10, 4\n\t"     /* drain write buffer */
			 "bic	%[cr_noi], %[cr], #(1 << 12)\n\t"
			 "mrs	%[psr], cpsr\n\t"
			 "orr	%[psr_masked], %[psr], #0xc0\n\t"
			 "msr	cpsr_c, %[psr_masked]\n\t"
			 "mcr	p15, 0, %[cr_noi], c1, c0, 0\n\t"    /* I-cache off */
			 "mcr	p15, 0, %[zero], c7, c0, 4\n\t"      /* wait for interrupt */
			 "mcr	p15, 0, %[cr], c1, c0, 0\n\t"        /* I-cache as it was */
			 "msr	cpsr_c, %[psr]"
			 : [cr] "=&r"(cr), [cr_noi] "=&r"(cr_noi), [psr] "=&r"(psr),
			   [psr_masked] "=&r"(psr_masked)
			 : [zero] "r"(zero)
			 : "memory", "cc");
}

#endif
