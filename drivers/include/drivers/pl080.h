/*
 * ARM PrimeCell PL080 DMA controller (DDI0196): a DMA memcpy service.
 * Memory-to-memory transfers through linked-list items, buffers handed to
 * the controller through lokal/dma-mapping.h (the driver does no cache
 * maintenance of its own), completion by interrupt.
 */
#ifndef DRIVERS_PL080_H
#define DRIVERS_PL080_H

#include <stdbool.h>
#include <stdint.h>
#include <lokal/dma-mapping.h>

#define PL080_CHANNELS          8
/* Items one transfer may need: every entry boundary of either list, and 4 KiB pieces. */
#define PL080_MAX_ITEMS         32

/* Flags of pl080_memcpy_sg(). */
#define PL080_NOWAIT            (1u << 0)       /* no free channel: -EBUSY instead of sleeping */

/*
 * Set up the controller at base (its interrupt on line irq), before any
 * transfer; returns 0 (at once if it was set up already), or -1 if the
 * line is taken.
 */
int pl080_init(uintptr_t base, unsigned int irq);

/*
 * Take a channel for the caller's own use (held until released): sleeps
 * while all are taken, or returns -EBUSY with PL080_NOWAIT. Threads only.
 */
int pl080_request_chan(unsigned int flags);
void pl080_release_chan(int chan);

/*
 * Copy the bytes src's entries describe into the bytes dst's describe
 * (equal totals), on one channel, sleeping until the completion interrupt
 * or timeout ticks. Returns 0; -EINVAL for unequal or zero totals or too
 * many pieces; -EBUSY with PL080_NOWAIT when every channel is taken;
 * -ENOMEM if the buffers could not be mapped; -EIO if the controller
 * reported a transfer error; -ETIMEDOUT. Whatever the result, nothing is
 * left mapped and the channel is free again. Threads only.
 */
int pl080_memcpy_sg(struct scatterlist *dst, int dst_nents,
		    struct scatterlist *src, int src_nents,
		    unsigned int flags, long timeout);

/* What the driver counted since pl080_init(): tests and the bench. */
struct pl080_stats {
	unsigned long transfers;        /* calls that reached the controller */
	unsigned long tc_irqs;          /* terminal-count interrupts taken */
	unsigned long err_irqs;         /* error interrupts taken */
	unsigned long busy;             /* PL080_NOWAIT calls refused */
	unsigned long timeouts;
};
void pl080_get_stats(struct pl080_stats *st);

#endif
