/*
 * A test-side interrupt injection point: right after a D-cache flush made
 * with interrupts on. The link wraps arch/sim's __cpuc_flush_dcache_area
 * (see sched.mk), so the model itself is unchanged.
 */
#include <stddef.h>
#include <asm/irqflags.h>
#include "sched_host.h"

void (*host_irq_at_dcache_flush)(unsigned long vaddr);

void __real___cpuc_flush_dcache_area(void *addr, size_t size);
void __wrap___cpuc_flush_dcache_area(void *addr, size_t size);

void __wrap___cpuc_flush_dcache_area(void *addr, size_t size)
{
	void (*irq)(unsigned long) = host_irq_at_dcache_flush;

	__real___cpuc_flush_dcache_area(addr, size);
	if (irq && !arch_irqs_disabled()) {
		host_irq_at_dcache_flush = NULL;        /* one interrupt per arming */
		irq((unsigned long)addr);
	}
}
