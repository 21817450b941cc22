/* Versatile system controller registers: the 24 MHz counter. */
#ifndef DRIVERS_VERSATILE_SYSCTL_H
#define DRIVERS_VERSATILE_SYSCTL_H

#include <stdint.h>
#include <drivers/mmio.h>

/* Free-running 32-bit counter at 24 MHz (SYS_24MHZ). */
static inline uint32_t versatile_counter_read(uintptr_t counter_reg)
{
	return mmio_read32(counter_reg);
}

#endif
