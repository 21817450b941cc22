/* Device register access: volatile, no reordering by the compiler. */
#ifndef DRIVERS_MMIO_H
#define DRIVERS_MMIO_H

#include <stdint.h>

static inline uint32_t mmio_read32(uintptr_t addr)
{
	return *(volatile uint32_t *)addr;
}

static inline void mmio_write32(uintptr_t addr, uint32_t val)
{
	*(volatile uint32_t *)addr = val;
}

#endif
