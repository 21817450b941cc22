/* versatilepb's memory-to-memory DMA for lokal/dma-memcpy.h: the PL080. */
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

static const struct dma_memcpy_ops pl080_ops = {
	.name = "PL080",
	.init = pl080_setup,
	.memcpy_sg = pl080_copy,
};

const struct dma_memcpy_ops *board_dma_memcpy(void)
{
	return &pl080_ops;
}
