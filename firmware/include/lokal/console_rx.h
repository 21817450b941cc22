/*
 * The console's receive ring, for the board's UART interrupt handler: it
 * passes what it drained to console_rx_bytes() and reports the UART's
 * overruns. console_getc() and console_rx_get_stats() (lokal/platform.h)
 * read it.
 */
#ifndef LOKAL_CONSOLE_RX_H
#define LOKAL_CONSOLE_RX_H

/*
 * Store n received bytes (IRQ context), in one go: a handler's window
 * delays every other interrupt. What a full ring cannot take is dropped
 * and counted.
 */
void console_rx_bytes(void *ctx, const char *buf, unsigned int n);
/* Count n bytes the UART lost before they reached the ring. */
void console_rx_overruns(unsigned int n);

#endif
