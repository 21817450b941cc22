/* ARM PrimeCell PL061 GPIO. */
#ifndef DRIVERS_PL061_H
#define DRIVERS_PL061_H

#include <stdint.h>

void pl061_set_output(uintptr_t base, unsigned int pin);
/* Stop driving pin (writes to it then change nothing outside the chip). */
void pl061_set_input(uintptr_t base, unsigned int pin);
/* One store: the PL061 masks writes by address bits, no read-modify-write. */
static inline void pl061_write(uintptr_t base, unsigned int pin, int level)
{
	*(volatile uint32_t *)(base + (4u << pin)) = level ? (1u << pin) : 0;
}
int pl061_read(uintptr_t base, unsigned int pin);

#endif
