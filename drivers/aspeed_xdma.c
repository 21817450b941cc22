/* ASPEED AST2400 XDMA: its completion interrupt as a software line (see the header). */
#include <drivers/aspeed_xdma.h>
#include <drivers/mmio.h>

#define XDMA_CMDQ_WRP           0x18
#define XDMA_IRQ_CTRL           0x20
#define XDMA_IRQ_STAT           0x24
#define XDMA_UPSTREAM_DONE      (1u << 4)

void aspeed_xdma_irq_init(uintptr_t base)
{
	mmio_write32(base + XDMA_IRQ_STAT, XDMA_UPSTREAM_DONE);
	mmio_write32(base + XDMA_IRQ_CTRL, XDMA_UPSTREAM_DONE);
}

void aspeed_xdma_irq_raise(uintptr_t base)
{
	mmio_write32(base + XDMA_CMDQ_WRP, 0);
}

void aspeed_xdma_irq_clear(uintptr_t base)
{
	mmio_write32(base + XDMA_IRQ_STAT, XDMA_UPSTREAM_DONE);
}
