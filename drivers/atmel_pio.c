/* Atmel PIO (AT91SAM9G20 datasheet, "Parallel Input/Output Controller"). */
#include <drivers/atmel_pio.h>
#include <drivers/mmio.h>

#define PIO_PER         0x00
#define PIO_PDR         0x04
#define PIO_OER         0x10
#define PIO_ODR         0x14
#define PIO_IDR         0x44
#define PIO_MDDR        0x54
#define PIO_PUDR        0x60
#define PIO_ASR         0x70

void atmel_pio_set_periph_a(uintptr_t base, unsigned int pin)
{
	mmio_write32(base + PIO_IDR, 1u << pin);
	mmio_write32(base + PIO_ASR, 1u << pin);
	mmio_write32(base + PIO_PDR, 1u << pin);
}

void atmel_pio_set_output(uintptr_t base, unsigned int pin, int level)
{
	mmio_write32(base + PIO_IDR, 1u << pin);
	mmio_write32(base + PIO_MDDR, 1u << pin);      /* push-pull */
	mmio_write32(base + PIO_PUDR, 1u << pin);
	atmel_pio_write(base, pin, level);              /* level before driving */
	mmio_write32(base + PIO_OER, 1u << pin);
	mmio_write32(base + PIO_PER, 1u << pin);
}

void atmel_pio_set_input(uintptr_t base, unsigned int pin)
{
	mmio_write32(base + PIO_ODR, 1u << pin);
}
