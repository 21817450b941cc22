/*
 * ARM PL011 UART (DDI0183): TX straight to stdout, RX from stdin or a file
 * through a 16-byte FIFO (uart_rx.c) with the RX/RT interrupts: the
 * revision the ID registers give (r1p1-r1p4; only r1p5's are 32 deep).
 */
#include <stdlib.h>
#include "hw/devices.h"

#define DR_OE		(1u << 11)	/* a byte was lost to a full FIFO */
#define FR_RXFE		(1u << 4)
#define FR_RXFF		(1u << 6)
#define FR_TXFE		(1u << 7)
#define CR_UARTEN	(1u << 0)
#define CR_RXE		(1u << 9)
#define INT_RX		(1u << 4)
#define INT_TX		(1u << 5)
#define INT_RT		(1u << 6)
#define UARTCLK_HZ	24000000u	/* versatilepb's UART reference clock */
#define FIFO		16

struct pl011 {
	struct device dev;
	struct irq_line irq;
	struct uart_rx rx;
	uint32_t ibrd, fbrd, lcr, cr, ifls, imsc, dmacr, ilpr;
};

static uint32_t raw_status(const struct pl011 *u)
{
	return INT_TX | (u->rx.count ? INT_RX | INT_RT : 0);
}

static void update_irq(struct pl011 *u)
{
	irq_set(&u->irq, (raw_status(u) & u->imsc) != 0);
}

static void rx_changed(void *dev)
{
	update_irq(dev);
}

static bool receiving(void *dev)
{
	const struct pl011 *u = dev;

	return (u->cr & (CR_UARTEN | CR_RXE)) == (CR_UARTEN | CR_RXE) && (u->imsc & (INT_RX | INT_RT));
}

/* One character's time on the line (start, 8 data, stop bits) at the
 * divisor the driver programmed; 0 before it programs one. */
static uint64_t rx_char_ns(void *dev)
{
	const struct pl011 *u = dev;
	uint64_t div64 = 64ull * u->ibrd + u->fbrd;	/* baud = UARTCLK / (16 * div64 / 64) */

	return u->ibrd ? 10ull * 1000000000ull * 16 * div64 / 64 / UARTCLK_HZ : 0;
}

static bool uart_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct pl011 *u = d->priv;

	(void)size;
	switch (off) {
	case 0x00: {
		bool lost = uart_rx_overrun(&u->rx);
		int c = uart_rx_pop(&u->rx);

		*val = (c < 0 ? 0 : (uint32_t)c) | (lost ? DR_OE : 0);
		update_irq(u);
		return true;
	}
	case 0x04: *val = 0; return true;
	case 0x18: *val = FR_TXFE | (u->rx.count ? 0 : FR_RXFE) | (u->rx.count == FIFO ? FR_RXFF : 0); return true;
	case 0x20: *val = u->ilpr; return true;
	case 0x24: *val = u->ibrd; return true;
	case 0x28: *val = u->fbrd; return true;
	case 0x2c: *val = u->lcr; return true;
	case 0x30: *val = u->cr; return true;
	case 0x34: *val = u->ifls; return true;
	case 0x38: *val = u->imsc; return true;
	case 0x3c: *val = raw_status(u); return true;
	case 0x40: *val = raw_status(u) & u->imsc; return true;
	case 0x48: *val = u->dmacr; return true;
	}
	if (off >= 0xfe0 && off < 0x1000) {
		static const uint8_t id[8] = { 0x11, 0x10, 0x14, 0x00, 0x0d, 0xf0, 0x05, 0xb1 };

		*val = id[(off - 0xfe0) / 4];
		return true;
	}
	return false;
}

static bool uart_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct pl011 *u = d->priv;

	(void)size;
	switch (off) {
	case 0x00:
		vemu_console_putc(d->vm, (int)(val & 0xff));
		return true;
	case 0x04: return true;
	case 0x20: u->ilpr = val; return true;
	case 0x24: u->ibrd = val; return true;
	case 0x28: u->fbrd = val; return true;
	case 0x2c: u->lcr = val; return true;
	case 0x30: u->cr = val; break;
	case 0x34: u->ifls = val; return true;
	case 0x38: u->imsc = val; break;
	case 0x44: break;	/* RX/RT stay raised while the FIFO holds data */
	case 0x48: u->dmacr = val; return true;
	default: return false;
	}
	update_irq(u);
	return true;
}

void pl011_create(struct vemu *vm, uint32_t base, struct irq_line irq, const char *input)
{
	struct pl011 *u = DEVICE_NEW(vm, struct pl011, .name = "PL011 UART", .base = base,
				     .size = 0x1000, .read = uart_read, .write = uart_write);
	u->irq = irq;
	u->cr = 0x300;
	u->rx = (struct uart_rx){ .dev = u, .listening = receiving, .char_ns = rx_char_ns,
				  .changed = rx_changed };
	uart_rx_init(vm, &u->rx, input, FIFO);
}
