/*
 * Memory-to-memory DMA without naming the board's engine. An application
 * built for several boards asks dma_memcpy_engine() whether this one has
 * such an engine and copies with dma_memcpy_sg(): no #ifdef for the
 * controller. The buffers are scatterlists of pages (lokal/dma-mapping.h),
 * mapped and unmapped inside, so every cache operation is done for the
 * caller; the CPU must not touch them until the call returns.
 */
#ifndef LOKAL_DMA_MEMCPY_H
#define LOKAL_DMA_MEMCPY_H

#include <lokal/dma-mapping.h>

/*
 * The name of this board's memory-to-memory DMA engine ("PL080"), or NULL
 * where it has none (a peripheral-only DMA, as the AT91's PDC, does not count).
 */
const char *dma_memcpy_engine(void);

/*
 * Copy the bytes src's entries describe into the bytes dst's describe
 * (equal totals), sleeping until the engine is done or timeout ticks pass.
 * Returns 0; -ENODEV where the board has no engine; otherwise the engine's
 * error: -EINVAL (unequal or zero totals, too many pieces), -ENOMEM (the
 * buffers could not be mapped), -EIO (the engine reported an error) or
 * -ETIMEDOUT. Threads only.
 */
int dma_memcpy_sg(struct scatterlist *dst, int dst_nents,
		  struct scatterlist *src, int src_nents, long timeout);

/* What the engine's driver counted since it was set up. */
struct dma_memcpy_stats {
	unsigned long transfers;        /* copies that reached the engine */
	unsigned long completion_irqs;  /* transfer-complete interrupts taken */
	unsigned long error_irqs;       /* the engine's error interrupts */
	unsigned long timeouts;         /* copies that ran out of time */
};

/*
 * Fill st with the engine's counts (all zero before the first copy sets it
 * up); a caller that wants its own work's figures takes the difference of
 * two calls. Returns 0, or -ENODEV where the board has no engine.
 */
int dma_memcpy_get_stats(struct dma_memcpy_stats *st);

/*
 * What a board supplies: its engine, or NULL. init() runs once, in the
 * first caller's thread, before the first copy; get_stats() may be called
 * before init().
 */
struct dma_memcpy_ops {
	const char *name;
	int (*init)(void);
	int (*memcpy_sg)(struct scatterlist *dst, int dst_nents,
			 struct scatterlist *src, int src_nents, long timeout);
	void (*get_stats)(struct dma_memcpy_stats *st);
};
const struct dma_memcpy_ops *board_dma_memcpy(void);

#endif
