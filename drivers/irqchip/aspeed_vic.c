/*
 * ASPEED AST2400 VIC, new register set (AST2400 datasheet ch. VIC; the
 * layout Linux's irq-aspeed-vic.c programs). Each register is a pair:
 * +0 lines 0..31, +4 lines 32..63.
 */
#include <drivers/aspeed_vic.h>
#include <drivers/mmio.h>

#define VIC_INT_SELECT          0x98    /* 1: FIQ */
#define VIC_INT_ENABLE          0xa0    /* write 1 to enable */
#define VIC_INT_ENABLE_CLR      0xa8    /* write 1 to disable */
#define VIC_SOFT_INT            0xb0    /* write 1 to raise */
#define VIC_SOFT_INT_CLR        0xb8    /* write 1 to drop */
#define VIC_INT_SENSE           0xc0    /* 1: level, 0: edge */

static uint32_t edge_lines[2];

static uintptr_t reg(uintptr_t base, uint32_t off, unsigned int irq)
{
	return base + off + 4 * (irq >> 5);
}

void aspeed_vic_init(uintptr_t base)
{
	for (unsigned int w = 0; w < 2; w++) {
		mmio_write32(base + VIC_INT_ENABLE_CLR + 4 * w, 0xffffffffu);
		mmio_write32(base + VIC_SOFT_INT_CLR + 4 * w, 0xffffffffu);
		mmio_write32(base + VIC_INT_SELECT + 4 * w, 0);
		edge_lines[w] = ~mmio_read32(base + VIC_INT_SENSE + 4 * w);
		/* Latches left by the boot loader's devices (timers, ...). */
		mmio_write32(base + ASPEED_VIC_EDGE_CLR + 4 * w, edge_lines[w]);
	}
}

void aspeed_vic_unmask(uintptr_t base, unsigned int irq)
{
	mmio_write32(reg(base, VIC_INT_ENABLE, irq), 1u << (irq & 31));
}

void aspeed_vic_mask(uintptr_t base, unsigned int irq)
{
	mmio_write32(reg(base, VIC_INT_ENABLE_CLR, irq), 1u << (irq & 31));
}

int aspeed_vic_is_edge(unsigned int irq)
{
	return (edge_lines[irq >> 5] >> (irq & 31)) & 1;
}

void aspeed_vic_soft_raise(uintptr_t base, unsigned int irq)
{
	mmio_write32(reg(base, VIC_SOFT_INT, irq), 1u << (irq & 31));
}

void aspeed_vic_soft_clear(uintptr_t base, unsigned int irq)
{
	mmio_write32(reg(base, VIC_SOFT_INT_CLR, irq), 1u << (irq & 31));
}

int aspeed_vic_soft_works(uintptr_t base, unsigned int irq)
{
	uint32_t bit = 1u << (irq & 31);
	int works;

	aspeed_vic_soft_raise(base, irq);
	works = (mmio_read32(reg(base, VIC_SOFT_INT, irq)) & bit) != 0;
	aspeed_vic_soft_clear(base, irq);
	return works;
}
