/* ARM PrimeCell PL190 VIC (DDI0181), plus the Versatile SIC behind line 31. */
#include <drivers/pl190.h>
#include <drivers/mmio.h>

#define VICINTSELECT    0x00c
#define VICINTENABLE    0x010
#define VICINTENCLEAR   0x014
#define VICSOFTINTCLEAR 0x01c

#define SIC_ENCLR       0x00c
#define SIC_PICENCLR    0x024

void pl190_init(uintptr_t base)
{
	mmio_write32(base + VICINTENCLEAR, 0xffffffffu);
	mmio_write32(base + VICSOFTINTCLEAR, 0xffffffffu);
	mmio_write32(base + VICINTSELECT, 0);
}

void pl190_unmask(uintptr_t base, unsigned int irq)
{
	mmio_write32(base + VICINTENABLE, 1u << irq);
}

void pl190_mask(uintptr_t base, unsigned int irq)
{
	mmio_write32(base + VICINTENCLEAR, 1u << irq);
}



void versatile_sic_init(uintptr_t base)
{
	mmio_write32(base + SIC_ENCLR, 0xffffffffu);
	mmio_write32(base + SIC_PICENCLR, 0xffffffffu);
}
