/* The board's memory-to-memory DMA behind one portable call (lokal/dma-memcpy.h). */
#include <errno.h>
#include <string.h>
#include <lokal/dma-memcpy.h>
#include <lokal/mutex.h>

static DEFINE_MUTEX(setup_lock);
static int setup_result = 1;            /* 1: not tried yet */

const char *dma_memcpy_engine(void)
{
	const struct dma_memcpy_ops *ops = board_dma_memcpy();

	return ops ? ops->name : NULL;
}

/* The engine set up once; two first callers must not both program it. */
static int engine_ready(const struct dma_memcpy_ops *ops)
{
	mutex_lock(&setup_lock);
	if (setup_result == 1)
		setup_result = ops->init ? ops->init() : 0;
	mutex_unlock(&setup_lock);
	return setup_result;
}

int dma_memcpy_sg(struct scatterlist *dst, int dst_nents,
		  struct scatterlist *src, int src_nents, long timeout)
{
	const struct dma_memcpy_ops *ops = board_dma_memcpy();

	if (!ops)
		return -ENODEV;
	if (engine_ready(ops))
		return -EIO;
	return ops->memcpy_sg(dst, dst_nents, src, src_nents, timeout);
}

int dma_memcpy_get_stats(struct dma_memcpy_stats *st)
{
	const struct dma_memcpy_ops *ops = board_dma_memcpy();

	memset(st, 0, sizeof(*st));
	if (!ops)
		return -ENODEV;
	/* before the engine's setup its driver has counted nothing, or counts another user's work */
	if (setup_result == 0 && ops->get_stats)
		ops->get_stats(st);
	return 0;
}
