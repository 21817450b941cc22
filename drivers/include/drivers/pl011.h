/* ARM PrimeCell PL011 UART. */
#ifndef DRIVERS_PL011_H
#define DRIVERS_PL011_H

#include <stdint.h>

/* Program baud rate (from the UART clock), 8N1, FIFOs on; receive IRQ off. */
void pl011_init(uintptr_t base, uint32_t uartclk, uint32_t baud);
/* Busy-wait until the transmit FIFO has room, then send c. */
void pl011_putc(uintptr_t base, char c);
/* Enable / disable the receive and receive-timeout interrupts. */
void pl011_enable_rx_irq(uintptr_t base);
void pl011_disable_rx_irq(uintptr_t base);
/*
 * Drain the receive FIFO and hand what it held to rx(ctx, buf, n) in one
 * call (a call per byte would lengthen the handler's window by a third);
 * call from the UART's IRQ.
 * Returns how many FIFO overruns the UART flagged meanwhile (each lost at
 * least one byte).
 */
unsigned int pl011_rx_irq(uintptr_t base, void (*rx)(void *ctx, const char *buf, unsigned int n), void *ctx);

#endif
