/* Atmel DBGU (debug unit UART), AT91SAM9 family. */
#ifndef DRIVERS_ATMEL_DBGU_H
#define DRIVERS_ATMEL_DBGU_H

#include <stddef.h>
#include <stdint.h>

/* 8N1 at baud from the master clock, receiver and transmitter on, no IRQs.
 * The board routes the DRXD/DTXD pins to the DBGU first. */
void atmel_dbgu_init(uintptr_t base, uint32_t mck_hz, uint32_t baud);
/* Busy-wait until the transmitter holding register is free, then send c. */
void atmel_dbgu_putc(uintptr_t base, char c);
/* Receive-ready interrupt on / off (the DBGU shares the AIC's system line). */
void atmel_dbgu_enable_rx_irq(uintptr_t base);
void atmel_dbgu_disable_rx_irq(uintptr_t base);
/* Nonzero when the DBGU is requesting an enabled interrupt. */
int atmel_dbgu_irq_pending(uintptr_t base);
/* Hand what arrived to rx(ctx, buf, n) and clear errors; call from the IRQ.
 * Returns how many receiver overruns it saw (each lost at least one byte). */
unsigned int atmel_dbgu_rx_irq(uintptr_t base, void (*rx)(void *ctx, const char *buf, unsigned int n), void *ctx);

/*
 * Send len bytes at offset in page through the DBGU's PDC transmitter (a
 * device-paced DMA read of memory), sleeping a tick at a time until the
 * PDC has taken the last byte or timeout_ticks passed. Returns 0, -EINVAL
 * (empty, over 65535 bytes, or past the page), -ENOMEM (no DMA mapping) or
 * -ETIMEDOUT; the buffer is unmapped whatever the result. Threads only
 * (atmel_dbgu_pdc.c).
 */
struct page;
int atmel_dbgu_pdc_write(uintptr_t base, struct page *page, unsigned int offset, size_t len,
			 unsigned int timeout_ticks);

#endif
