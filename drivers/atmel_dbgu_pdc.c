/*
 * The DBGU's PDC transmitter (AT91SAM9G20 datasheet, "Peripheral DMA
 * Controller"): the console sends a buffer that may be highmem, paced by
 * the UART, handed over through the streaming DMA API (the driver does no
 * cache maintenance of its own).
 */
#include <errno.h>
#include <drivers/atmel_dbgu.h>
#include <drivers/mmio.h>
#include <lokal/dma-mapping.h>
#include <lokal/thread.h>

#define DBGU_SR         0x14
#define SR_ENDTX        (1u << 4)
#define PERIPH_TPR      0x108
#define PERIPH_TCR      0x10c
#define PERIPH_PTCR     0x120
#define PTCR_TXTEN      (1u << 8)
#define PTCR_TXTDIS     (1u << 9)
#define TCR_MAX         0xffffu

int atmel_dbgu_pdc_write(uintptr_t base, struct page *page, unsigned int offset, size_t len,
			 unsigned int timeout_ticks)
{
	dma_addr_t a;
	int ret = 0;

	if (!len || len > TCR_MAX || offset >= PAGE_SIZE || len > PAGE_SIZE - offset)
		return -EINVAL;
	a = dma_map_page(page, offset, len, DMA_TO_DEVICE);
	if (dma_mapping_error(a))
		return -ENOMEM;
	mmio_write32(base + PERIPH_PTCR, PTCR_TXTDIS);
	mmio_write32(base + PERIPH_TPR, a);
	mmio_write32(base + PERIPH_TCR, (uint32_t)len);
	mmio_write32(base + PERIPH_PTCR, PTCR_TXTEN);
	/* A character takes ~87 us at 115200 baud: a tick's sleep between looks. */
	for (unsigned int t = 0; !(mmio_read32(base + DBGU_SR) & SR_ENDTX); t++) {
		if (t == timeout_ticks) {
			ret = -ETIMEDOUT;
			break;
		}
		sleep_ticks(1);
	}
	mmio_write32(base + PERIPH_PTCR, PTCR_TXTDIS);
	dma_unmap_page(a, len, DMA_TO_DEVICE);
	return ret;
}
