/*
 * The console's receive ring, for the board's UART interrupt handler: it
 * passes each byte to console_rx_byte() and reports the UART's overruns.
 * console_getc() and console_rx_get_stats() (lokal/platform.h) read it.
 */
#ifndef LOKAL_CONSOLE_RX_H
#define LOKAL_CONSOLE_RX_H

/* Store one received byte (IRQ context); a full ring drops and counts it. */
void console_rx_byte(void *ctx, char c);
/* Count n bytes the UART lost before they reached the ring. */
void console_rx_overruns(unsigned int n);

#endif
