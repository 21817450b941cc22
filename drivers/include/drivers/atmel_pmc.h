/* Atmel PMC (Power Management Controller): peripheral clock gates only. */
#ifndef DRIVERS_ATMEL_PMC_H
#define DRIVERS_ATMEL_PMC_H

#include <stdint.h>
#include <drivers/mmio.h>

#define ATMEL_PMC_PCER  0x10

/* Turn on the clocks of the peripherals whose AIC ids are set in mask. */
static inline void atmel_pmc_enable_periph(uintptr_t base, uint32_t mask)
{
	mmio_write32(base + ATMEL_PMC_PCER, mask);
}

#endif
