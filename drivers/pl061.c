/* ARM PrimeCell PL061 GPIO (DDI0190). */
#include <drivers/pl061.h>
#include <drivers/mmio.h>

#define GPIODIR 0x400

void pl061_set_output(uintptr_t base, unsigned int pin)
{
	mmio_write32(base + GPIODIR, mmio_read32(base + GPIODIR) | (1u << pin));
	pl061_write(base, pin, 0);
}

void pl061_set_input(uintptr_t base, unsigned int pin)
{
	mmio_write32(base + GPIODIR, mmio_read32(base + GPIODIR) & ~(1u << pin));
}

int pl061_read(uintptr_t base, unsigned int pin)
{
	return (mmio_read32(base + (4u << pin)) >> pin) & 1;
}
