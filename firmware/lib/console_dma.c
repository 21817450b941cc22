/* The board's console DMA behind one portable call (lokal/console-dma.h). */
#include <errno.h>
#include <lokal/console-dma.h>

const char *console_dma_engine(void)
{
	const struct console_dma_ops *ops = board_console_dma();

	return ops ? ops->name : NULL;
}

int console_dma_write(struct page *pg, unsigned int offset, size_t len, long timeout)
{
	const struct console_dma_ops *ops = board_console_dma();

	if (!ops)
		return -ENODEV;
	if (timeout < 0)
		return -EINVAL;
	return ops->write(pg, offset, len, timeout);
}
