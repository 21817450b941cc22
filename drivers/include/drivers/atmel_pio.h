/* Atmel PIO controller, AT91SAM9 family: GPIO and pin multiplexing. */
#ifndef DRIVERS_ATMEL_PIO_H
#define DRIVERS_ATMEL_PIO_H

#include <stdint.h>

/* Give pin to peripheral A (e.g. the DBGU's DRXD/DTXD). */
void atmel_pio_set_periph_a(uintptr_t base, unsigned int pin);
/* Make pin a GPIO output driving level. */
void atmel_pio_set_output(uintptr_t base, unsigned int pin, int level);
/* One store: set/clear registers need no read-modify-write. */
/* Stop driving pin (output disabled; writes then only change the latch). */
void atmel_pio_set_input(uintptr_t base, unsigned int pin);
static inline void atmel_pio_write(uintptr_t base, unsigned int pin, int level)
{
	*(volatile uint32_t *)(base + (level ? 0x30 : 0x34)) = 1u << pin;
}

#endif
