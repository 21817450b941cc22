/*
 * ASPEED AST2400 GPIO: pins in sets of 32 (A-D, E-H, ...), each set a
 * data register and a direction register. A pin is given as its set's
 * data register offset (ASPEED_GPIO_SET_*) and its bit (0..31).
 */
#ifndef DRIVERS_ASPEED_GPIO_H
#define DRIVERS_ASPEED_GPIO_H

#include <stdint.h>
#include <drivers/mmio.h>

#define ASPEED_GPIO_SET_ABCD    0x000
#define ASPEED_GPIO_SET_EFGH    0x020
#define ASPEED_GPIO_DIR         0x004   /* from the set's data register; 1: output */
/* Where a set's output latch reads back (the data register reads the pins). */
#define ASPEED_GPIO_ABCD_RDATA  0x0c0
#define ASPEED_GPIO_EFGH_RDATA  0x0c4

/* Make pin an output (driving its latch) or an input. */
void aspeed_gpio_set_output(uintptr_t set, unsigned int pin);
void aspeed_gpio_set_input(uintptr_t set, unsigned int pin);
/*
 * Drive pin to level: a read of the output latch (rdata) and a write of
 * the set's data register, so the caller keeps interrupts off around it
 * when another context drives a pin of the same set.
 */
static inline void aspeed_gpio_write(uintptr_t set, uintptr_t rdata, unsigned int pin, int level)
{
	uint32_t v = mmio_read32(rdata);

	v = level ? v | (1u << pin) : v & ~(1u << pin);
	mmio_write32(set, v);
}

#endif
