/*
 * Console output sent by DMA from memory, without naming the board's
 * engine: an application asks console_dma_engine() whether this board's
 * console has one and sends with console_dma_write(). The engine reads
 * the page itself, so the call does the cache cleaning (lokal/dma-mapping.h).
 */
#ifndef LOKAL_CONSOLE_DMA_H
#define LOKAL_CONSOLE_DMA_H

#include <stddef.h>
#include <lokal/mm.h>

/* The name of the engine ("DBGU's PDC"), or NULL where the console has none. */
const char *console_dma_engine(void);

/*
 * Send len bytes at offset in pg to the console, sleeping until the engine
 * has taken the last byte or timeout ticks pass. Returns 0; -ENODEV where
 * the board has no engine; -EINVAL (empty, too long for the engine, or
 * past the page); -ENOMEM (no DMA mapping) or -ETIMEDOUT. The page may be
 * highmem and mapped elsewhere: only the bytes sent are read. Threads only.
 */
int console_dma_write(struct page *pg, unsigned int offset, size_t len, long timeout);

/* What a board supplies: its console's engine, or NULL. */
struct console_dma_ops {
	const char *name;
	int (*write)(struct page *pg, unsigned int offset, size_t len, long timeout);
};
const struct console_dma_ops *board_console_dma(void);

#endif
