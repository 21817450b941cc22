/* Atmel AIC (AT91SAM9G20 datasheet, "Advanced Interrupt Controller"). */
#include <drivers/atmel_aic.h>
#include <drivers/mmio.h>

#define AIC_SMR(n)      (0x000 + 4 * (n))
#define AIC_SVR(n)      (0x080 + 4 * (n))
#define AIC_IVR         0x100
#define AIC_ISR         0x108
#define AIC_IDCR        0x124
#define AIC_IECR        0x120
#define AIC_ICCR        0x128
#define AIC_ISCR        0x12c
#define AIC_EOICR       0x130
#define AIC_SPU         0x134
#define AIC_DCR         0x138

#define SMR_SRCTYPE_EDGE (3u << 5)      /* positive edge (internal and external) */
#define SPURIOUS_VECTOR  0xffffffffu

void atmel_aic_init(uintptr_t base, uint32_t edge_mask)
{
	unsigned int i;

	mmio_write32(base + AIC_IDCR, 0xffffffffu);
	mmio_write32(base + AIC_ICCR, 0xffffffffu);
	/* The vector register then returns the source number itself. */
	for (i = 0; i < AIC_NR_SOURCES; i++) {
		mmio_write32(base + AIC_SVR(i), i);
		mmio_write32(base + AIC_SMR(i), (edge_mask >> i) & 1 ? SMR_SRCTYPE_EDGE : 0);
	}
	mmio_write32(base + AIC_SPU, SPURIOUS_VECTOR);
	mmio_write32(base + AIC_DCR, 0);        /* no protect mode, no general mask */
	/* Unwind the priority stack a boot loader may have left (8 levels). */
	for (i = 0; i < 8; i++)
		mmio_write32(base + AIC_EOICR, 0);
}

int atmel_aic_ack(uintptr_t base)
{
	/* Reading IVR is what marks the source in service and clears an edge. */
	uint32_t ivr = mmio_read32(base + AIC_IVR);

	if (ivr == SPURIOUS_VECTOR)
		return AIC_NO_IRQ;
	return (int)(mmio_read32(base + AIC_ISR) & 0x1f);
}

void atmel_aic_eoi(uintptr_t base)
{
	mmio_write32(base + AIC_EOICR, 0);
}

void atmel_aic_unmask(uintptr_t base, unsigned int irq)
{
	mmio_write32(base + AIC_IECR, 1u << irq);
}

void atmel_aic_mask(uintptr_t base, unsigned int irq)
{
	mmio_write32(base + AIC_IDCR, 1u << irq);
}

void atmel_aic_set(uintptr_t base, unsigned int irq)
{
	mmio_write32(base + AIC_ISCR, 1u << irq);
}

void atmel_aic_clear(uintptr_t base, unsigned int irq)
{
	mmio_write32(base + AIC_ICCR, 1u << irq);
}
