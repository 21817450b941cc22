/*
 * versatilepb's DMA: the PL080 for lokal/dma-memcpy.h; no console DMA
 * (the PL011's DMA requests reach the PL080, but the console driver is
 * interrupt-driven and nothing here wires them).
 */
#include <lokal/console-dma.h>
#include <lokal/dma-memcpy.h>
#include <drivers/pl080.h>
#include <board.h>

static int pl080_setup(void)
{
	return pl080_init(BOARD_PL080_BASE, BOARD_PL080_IRQ);
}

static int pl080_copy(struct scatterlist *dst, int dst_nents,
		      struct scatterlist *src, int src_nents, long timeout)
{
	return pl080_memcpy_sg(dst, dst_nents, src, src_nents, 0, timeout);
}

static void pl080_stats(struct dma_memcpy_stats *st)
{
	struct pl080_stats s;

	pl080_get_stats(&s);
	*st = (struct dma_memcpy_stats){ .transfers = s.transfers, .completion_irqs = s.tc_irqs,
					 .error_irqs = s.err_irqs, .timeouts = s.timeouts };
}

static const struct dma_memcpy_ops pl080_ops = {
	.name = "PL080",
	.init = pl080_setup,
	.memcpy_sg = pl080_copy,
	.get_stats = pl080_stats,
};

const struct dma_memcpy_ops *board_dma_memcpy(void)
{
	return &pl080_ops;
}

const struct console_dma_ops *board_console_dma(void)
{
	return NULL;
}
