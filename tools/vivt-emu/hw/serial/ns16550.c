/*
 * 16550-compatible UART, registers at 4-byte steps (the AST2400's UARTs):
 * TX to the console, RX from the run's input at the programmed baud rate
 * (one byte per character time, as the line delivers them), a 16-byte
 * receive FIFO, and the received-data interrupt. Modem lines read idle.
 */
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>
#include "hw/devices.h"

#define RX_POLL_NS	100000u		/* look for input every 100 us before a divisor is set */
#define FIFO		16
#define IER_RDI		0x01
#define LCR_DLAB	0x80
#define FCR_CLEAR_RX	0x02
#define LSR_DR		0x01
#define LSR_THRE_TEMT	0x60

struct ns16550 {
	struct device dev;
	struct irq_line irq;
	uint32_t uartclk;
	int fd;				/* -1 once the input has ended */
	uint8_t fifo[FIFO];
	unsigned head, count;
	uint32_t dll, dlm, ier, lcr, mcr, scr;
	struct event poll_ev;
};

static void update_irq(struct ns16550 *u)
{
	irq_set(&u->irq, (u->ier & IER_RDI) && u->count);
}

static bool receiving(const struct ns16550 *u)
{
	return u->ier & IER_RDI;
}

/* One character's time (start, 8 data, stop bits) at the divisor set; 0 before one is. */
static uint64_t char_ns(const struct ns16550 *u)
{
	uint64_t div = u->dll | u->dlm << 8;

	return div ? 10ull * 1000000000ull * 16 * div / u->uartclk : 0;
}

static void poll_input(struct event *e)
{
	struct ns16550 *u = e->priv;
	struct vemu *vm = u->dev.vm;
	uint64_t step = char_ns(u);

	if (u->fd < 0)
		return;
	if (receiving(u) && u->count < FIFO) {
		struct pollfd p = { .fd = u->fd, .events = POLLIN };
		uint8_t c;

		if (poll(&p, 1, 0) > 0) {
			if (read(u->fd, &c, 1) != 1) {
				u->fd = -1;	/* end of input: nothing more will come */
				return;
			}
			u->fifo[(u->head + u->count++) % FIFO] = c;
			update_irq(u);
		}
	}
	vemu_event_arm(vm, e, vm->now + (step ? step : RX_POLL_NS));
}

/* A byte of input would raise RX now: the FIFO has room and the driver listens. */
static int input_fd(struct event *e)
{
	struct ns16550 *u = e->priv;

	return u->fd >= 0 && receiving(u) && u->count < FIFO ? u->fd : -1;
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
			*val = 0;
			if (u->count) {
				*val = u->fifo[u->head];
				u->head = (u->head + 1) % FIFO;
				u->count--;
				update_irq(u);
			}
		}
		return true;
	case 0x04: *val = dlab ? u->dlm : u->ier; return true;
	case 0x08: *val = 0xc0 | ((u->ier & IER_RDI) && u->count ? 0x04 : 0x01); return true;
	case 0x0c: *val = u->lcr; return true;
	case 0x10: *val = u->mcr; return true;
	case 0x14: *val = LSR_THRE_TEMT | (u->count ? LSR_DR : 0); return true;
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
			u->count = 0;
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
	struct ns16550 *u = calloc(1, sizeof(*u));

	if (!u)
		abort();
	u->dev = (struct device){ .name = "16550 UART", .base = base, .size = 0x20,
				  .read = uart_read, .write = uart_write, .priv = u };
	u->irq = irq;
	u->uartclk = uartclk;
	u->fd = vemu_console_input(input);
	u->poll_ev.fire = poll_input;
	u->poll_ev.input_fd = input_fd;
	u->poll_ev.priv = u;
	vemu_event_add(vm, &u->poll_ev);
	vemu_event_arm(vm, &u->poll_ev, RX_POLL_NS);
	vemu_add_device(vm, &u->dev);
}
