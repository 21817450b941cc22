/* The console's receive ring, shared by every board (lokal/console_rx.h). */
#include <lokal/console_rx.h>
#include <lokal/platform.h>
#include <lokal/ringbuf.h>

static struct ringbuf ring;
static unsigned long overruns;

void console_rx_bytes(void *ctx, const char *buf, unsigned int n)
{
	(void)ctx;
	ringbuf_put_many(&ring, buf, n);
}

void console_rx_overruns(unsigned int n)
{
	overruns += n;
}

int console_getc(void)
{
	return ringbuf_get(&ring);
}

void console_rx_get_stats(struct console_rx_stats *st)
{
	/* The ring's head counts every byte it kept; both only grow. */
	st->ring_dropped = ring.dropped;
	st->received = ring.head + st->ring_dropped;
	st->uart_overruns = overruns;
}
