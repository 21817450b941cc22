/*
 * The host model's console DMA for lokal/console-dma.h: it maps the bytes
 * with the streaming DMA API, as the DBGU's PDC driver does, and reads
 * them as a bus master behind the D-cache (sim_dma_read) into a buffer the
 * tests read back, so the oracle sees a missing clean.
 */
#include <errno.h>
#include <string.h>
#include <lokal/console-dma.h>
#include <lokal/dma-mapping.h>
#include <asm/sim.h>

static char sent[512];
static size_t sent_len;

static int sim_console_write(struct page *pg, unsigned int offset, size_t len, long timeout)
{
	dma_addr_t a;

	(void)timeout;
	if (!len || len > sizeof(sent) - sent_len || offset >= PAGE_SIZE || len > PAGE_SIZE - offset)
		return -EINVAL;
	a = dma_map_page(pg, offset, len, DMA_TO_DEVICE);
	if (dma_mapping_error(a))
		return -ENOMEM;
	sim_dma_read(a, sent + sent_len, len);
	sent_len += len;
	dma_unmap_page(a, len, DMA_TO_DEVICE);
	return 0;
}

static const struct console_dma_ops sim_console_ops = {
	.name = "sim console",
	.write = sim_console_write,
};

const struct console_dma_ops *board_console_dma(void)
{
	return &sim_console_ops;
}

size_t sim_console_dma_take(char *buf, size_t size)
{
	size_t n = sent_len < size ? sent_len : size;

	memcpy(buf, sent, n);
	sent_len = 0;
	return n;
}
