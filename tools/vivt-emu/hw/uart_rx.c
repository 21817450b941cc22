/*
 * A UART's receive FIFO, fed from the run's input (a file, a pipe or a
 * terminal). Input is taken in only while the driver listens (receiver
 * and its interrupt on), as a person would type after the prompt; until
 * then it waits in the host's pipe. Once the driver has programmed a rate,
 * a byte arrives per character time, as the line delivers them; before
 * that, whatever the FIFO has room for, every 100 us.
 *
 * With --input-line the input is a host sending at the line's rate: it
 * starts when the driver first listens (the host saw the prompt) and from
 * then on a byte arrives every character time whatever the driver does;
 * one that finds the FIFO full is lost and the UART reports an overrun,
 * as on the chip.
 */
#include <poll.h>
#include <unistd.h>
#include "hw/devices.h"

#define RX_POLL_NS	100000u

/* The line's next byte: into the FIFO, or lost to a full one. */
static void line_byte(struct uart_rx *rx, uint8_t c)
{
	if (rx->count < rx->depth)
		rx->fifo[(rx->head + rx->count++) % rx->depth] = c;
	else
		rx->overrun = true;
	rx->changed(rx->dev);
}

static void poll_input(struct event *e)
{
	struct uart_rx *rx = e->priv;
	struct vemu *vm = rx->vm;
	uint64_t step;

	if (rx->fd < 0)
		return;
	step = rx->char_ns(rx->dev);
	if (rx->line && !rx->started)
		rx->started = step && rx->listening(rx->dev);
	if (rx->line ? rx->started : rx->listening(rx->dev) && rx->count < rx->depth) {
		struct pollfd p = { .fd = rx->fd, .events = POLLIN };

		if (poll(&p, 1, 0) > 0) {
			uint8_t buf[UART_RX_MAX];
			ssize_t n = read(rx->fd, buf, step ? 1 : rx->depth - rx->count);

			if (n <= 0) {
				rx->fd = -1;	/* end of input: nothing more will come */
				return;
			}
			if (rx->line) {
				line_byte(rx, buf[0]);
				vemu_event_arm(vm, e, vm->now + step);
				return;
			}
			for (ssize_t i = 0; i < n; i++)
				rx->fifo[(rx->head + rx->count++) % rx->depth] = buf[i];
			rx->changed(rx->dev);
			if (step) {
				vemu_event_arm(vm, e, vm->now + step);
				return;
			}
		}
	}
	vemu_event_arm(vm, e, vm->now + RX_POLL_NS);
}

/*
 * A byte of input would raise RX now: the FIFO has room and the driver
 * listens (a line once started delivers whatever the driver does).
 */
static int input_fd(struct event *e)
{
	struct uart_rx *rx = e->priv;

	if (rx->line && rx->started)
		return rx->fd;
	return rx->fd >= 0 && rx->listening(rx->dev) && rx->count < rx->depth ? rx->fd : -1;
}

void uart_rx_init(struct vemu *vm, struct uart_rx *rx, const char *input, unsigned depth)
{
	if (depth > UART_RX_MAX || !rx->listening || !rx->char_ns || !rx->changed)
		abort();
	rx->vm = vm;
	rx->depth = depth;
	rx->line = vm->opt.input_line;
	rx->fd = vemu_console_input(input);
	rx->ev.fire = poll_input;
	rx->ev.input_fd = input_fd;
	rx->ev.priv = rx;
	vemu_event_add(vm, &rx->ev);
	vemu_event_arm(vm, &rx->ev, RX_POLL_NS);
}

bool uart_rx_overrun(struct uart_rx *rx)
{
	bool o = rx->overrun;

	rx->overrun = false;
	return o;
}

int uart_rx_pop(struct uart_rx *rx)
{
	uint8_t c;

	if (!rx->count)
		return -1;
	c = rx->fifo[rx->head];
	rx->head = (rx->head + 1) % rx->depth;
	rx->count--;
	return c;
}
