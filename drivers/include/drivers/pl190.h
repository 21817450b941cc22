/* ARM PrimeCell PL190 vectored interrupt controller (used non-vectored). */
#ifndef DRIVERS_PL190_H
#define DRIVERS_PL190_H

#include <stdint.h>
#include <drivers/mmio.h>

#define PL190_VICIRQSTATUS      0x000
#define PL190_VICSOFTINT        0x018
#define PL190_VICSOFTINTCLEAR   0x01c

/* Mask every source, clear software interrupts, make all lines IRQ (not FIQ). */
void pl190_init(uintptr_t base);
void pl190_unmask(uintptr_t base, unsigned int irq);
void pl190_mask(uintptr_t base, unsigned int irq);
/* Bitmap of lines that are asserted and unmasked (inline: read on every IRQ). */
static inline uint32_t pl190_pending(uintptr_t base)
{
	return mmio_read32(base + PL190_VICIRQSTATUS);
}
/* Inline, as the clear: a benchmark's interrupt is raised in a loop. */
static inline void pl190_soft_raise(uintptr_t base, unsigned int irq)
{
	mmio_write32(base + PL190_VICSOFTINT, 1u << irq);
}
/* Inline: a software-raised interrupt's handler clears it first thing. */
static inline void pl190_soft_clear(uintptr_t base, unsigned int irq)
{
	mmio_write32(base + PL190_VICSOFTINTCLEAR, 1u << irq);
}

/* Versatile secondary interrupt controller (SIC): mask all, no pass-through. */
void versatile_sic_init(uintptr_t base);

#endif
