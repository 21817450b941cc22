/*
 * The host model's memory-to-memory DMA engine for lokal/dma-memcpy.h: it
 * maps both lists with the streaming DMA API, as the PL080 driver does,
 * then moves the bytes as a bus master behind the D-cache (sim_dma_read,
 * sim_dma_write), so the oracle sees a missing clean or invalidate.
 * Synchronous: the copy is done when the call returns.
 */
#include <errno.h>
#include <lokal/dma-memcpy.h>
#include <asm/sim.h>

static struct dma_memcpy_stats stats;

static size_t total(const struct scatterlist *sg, int nents)
{
	size_t n = 0;

	for (int i = 0; i < nents; i++)
		n += sg[i].length;
	return n;
}

static int sim_memcpy_sg(struct scatterlist *dst, int dst_nents,
			 struct scatterlist *src, int src_nents, long timeout)
{
	int s = 0, d = 0;
	unsigned int s_off = 0, d_off = 0;
	uint8_t buf[256];

	(void)timeout;
	if (dst_nents <= 0 || src_nents <= 0 || total(dst, dst_nents) != total(src, src_nents) ||
	    total(src, src_nents) == 0)
		return -EINVAL;
	if (!dma_map_sg(src, src_nents, DMA_TO_DEVICE))
		return -ENOMEM;
	if (!dma_map_sg(dst, dst_nents, DMA_FROM_DEVICE)) {
		dma_unmap_sg(src, src_nents, DMA_TO_DEVICE);
		return -ENOMEM;
	}
	stats.transfers++;
	while (s < src_nents) {
		unsigned int n = sg_dma_len(&src[s]) - s_off;

		if (n > sg_dma_len(&dst[d]) - d_off)
			n = sg_dma_len(&dst[d]) - d_off;
		if (n > sizeof(buf))
			n = sizeof(buf);
		sim_dma_read(sg_dma_address(&src[s]) + s_off, buf, n);
		sim_dma_write(sg_dma_address(&dst[d]) + d_off, buf, n);
		s_off += n;
		d_off += n;
		if (s_off == sg_dma_len(&src[s])) {
			s++;
			s_off = 0;
		}
		if (d < dst_nents && d_off == sg_dma_len(&dst[d])) {
			d++;
			d_off = 0;
		}
	}
	dma_unmap_sg(dst, dst_nents, DMA_FROM_DEVICE);
	dma_unmap_sg(src, src_nents, DMA_TO_DEVICE);
	stats.completion_irqs++;        /* as an engine that interrupts at the end */
	return 0;
}

static void sim_memcpy_stats(struct dma_memcpy_stats *st)
{
	*st = stats;
}

static const struct dma_memcpy_ops sim_ops = {
	.name = "sim",
	.memcpy_sg = sim_memcpy_sg,
	.get_stats = sim_memcpy_stats,
};

const struct dma_memcpy_ops *board_dma_memcpy(void)
{
	return &sim_ops;
}
