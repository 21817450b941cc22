/*
 * National Semiconductor 16550-compatible UART with 32-bit registers at a
 * 4-byte stride (as the AST2400's UARTs and QEMU's serial_mm with
 * regshift 2 place them).
 */
#ifndef DRIVERS_NS16550_H
#define DRIVERS_NS16550_H

#include <stdint.h>

/* Baud rate from the UART clock (divisor clk / 16 / baud, rounded), 8N1, FIFOs on, interrupts off. */
void ns16550_init(uintptr_t base, uint32_t uartclk, uint32_t baud);
/* Busy-wait until the transmitter holding register is empty, then send c. */
void ns16550_putc(uintptr_t base, char c);
/* Enable / disable the received-data (and its FIFO time-out) interrupt. */
void ns16550_enable_rx_irq(uintptr_t base);
void ns16550_disable_rx_irq(uintptr_t base);
/*
 * Drain the receive FIFO and hand what it held to rx(ctx, buf, n) in one
 * call; call from the UART's IRQ.
 * Returns how many overruns the UART flagged meanwhile.
 */
unsigned int ns16550_rx_irq(uintptr_t base, void (*rx)(void *ctx, const char *buf, unsigned int n), void *ctx);

#endif
