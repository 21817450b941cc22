/*
 * 16550-compatible UART, registers at 4-byte steps (the AST2400's UARTs):
 * TX to the console, RX from the run's input through a 16-byte receive
 * FIFO (uart_rx.c) at the programmed baud rate, and the received-data
 * interrupt. Modem lines read idle.
 */
#include <stdlib.h>
#include "hw/devices.h"

#define FIFO		16
#define IER_RDI		0x01
#define LCR_DLAB	0x80
#define FCR_CLEAR_RX	0x02
#define LSR_DR		0x01
#define LSR_OE		0x02	/* a byte was lost to a full FIFO; a read of LSR clears it */
#define LSR_THRE_TEMT	0x60

struct ns16550 {
	struct device dev;
	struct irq_line irq;
	uint32_t uartclk;
	struct uart_rx rx;
	uint32_t dll, dlm, ier, lcr, mcr, scr;
};

static void update_irq(struct ns16550 *u)
{
	irq_set(&u->irq, (u->ier & IER_RDI) && u->rx.count);
}

static void rx_changed(void *dev)
{
	update_irq(dev);
}

static bool receiving(void *dev)
{
	const struct ns16550 *u = dev;

	return u->ier & IER_RDI;
}

/* One character's time (start, 8 data, stop bits) at the divisor set; 0 before one is. */
static uint64_t char_ns(void *dev)
{
	const struct ns16550 *u = dev;
	uint64_t div = u->dll | u->dlm << 8;

	return div ? 10ull * 1000000000ull * 16 * div / u->uartclk : 0;
}

static bool uart_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct ns16550 *u = d->priv;
	bool dlab = u->lcr & LCR_DLAB;

	(void)size;
	switch (off) {
	case 0x00:
		if (dlab) {
			*val = u->dll;
		} else {
			int c = uart_rx_pop(&u->rx);

			*val = c < 0 ? 0 : (uint32_t)c;
			update_irq(u);
		}
		return true;
	case 0x04: *val = dlab ? u->dlm : u->ier; return true;
	case 0x08: *val = 0xc0 | ((u->ier & IER_RDI) && u->rx.count ? 0x04 : 0x01); return true;
	case 0x0c: *val = u->lcr; return true;
	case 0x10: *val = u->mcr; return true;
	case 0x14: *val = LSR_THRE_TEMT | (u->rx.count ? LSR_DR : 0) | (uart_rx_overrun(&u->rx) ? LSR_OE : 0); return true;
	case 0x18: *val = 0; return true;
	case 0x1c: *val = u->scr; return true;
	}
	return false;
}

static bool uart_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct ns16550 *u = d->priv;
	bool dlab = u->lcr & LCR_DLAB;

	(void)size;
	val &= 0xff;
	switch (off) {
	case 0x00:
		if (dlab)
			u->dll = val;
		else
			vemu_console_putc(d->vm, (int)val);
		return true;
	case 0x04:
		if (dlab)
			u->dlm = val;
		else
			u->ier = val & 0x0f;
		break;
	case 0x08:
		if (val & FCR_CLEAR_RX)
			u->rx.count = 0;
		break;
	case 0x0c: u->lcr = val; return true;
	case 0x10: u->mcr = val; return true;
	case 0x1c: u->scr = val; return true;
	default: return false;
	}
	update_irq(u);
	return true;
}

void ns16550_create(struct vemu *vm, uint32_t base, uint32_t uartclk, struct irq_line irq, const char *input)
{
	struct ns16550 *u = DEVICE_NEW(vm, struct ns16550, .name = "16550 UART", .base = base,
				       .size = 0x20, .read = uart_read, .write = uart_write);
	u->irq = irq;
	u->uartclk = uartclk;
	u->rx = (struct uart_rx){ .dev = u, .listening = receiving, .char_ns = char_ns,
				  .changed = rx_changed };
	uart_rx_init(vm, &u->rx, input, FIFO);
}
