/* ARM PrimeCell PL011 UART (DDI0183): polled output, interrupt-driven input. */
#include <drivers/pl011.h>
#include <drivers/mmio.h>

#define UARTDR          0x000
#define UARTFR          0x018
#define UARTIBRD        0x024
#define UARTFBRD        0x028
#define UARTLCR_H       0x02c
#define UARTCR          0x030
#define UARTIMSC        0x038
#define UARTICR         0x044

#define FR_RXFE         (1u << 4)
#define FR_TXFF         (1u << 5)
#define LCR_FEN         (1u << 4)
#define LCR_WLEN8       (3u << 5)
#define CR_UARTEN       (1u << 0)
#define CR_TXE          (1u << 8)
#define CR_RXE          (1u << 9)
#define INT_RX          (1u << 4)
#define INT_RT          (1u << 6)
#define DR_OE           (1u << 11)      /* a byte arrived while the FIFO was full */

void pl011_init(uintptr_t base, uint32_t uartclk, uint32_t baud)
{
	/* Divisor in 1/64ths: 64 * clk / (16 * baud), rounded. */
	uint32_t div64 = (4 * uartclk + baud / 2) / baud;

	mmio_write32(base + UARTCR, 0);
	mmio_write32(base + UARTICR, 0x7ff);
	mmio_write32(base + UARTIBRD, div64 >> 6);
	mmio_write32(base + UARTFBRD, div64 & 0x3f);
	mmio_write32(base + UARTLCR_H, LCR_WLEN8 | LCR_FEN);
	mmio_write32(base + UARTIMSC, 0);
	mmio_write32(base + UARTCR, CR_UARTEN | CR_TXE | CR_RXE);
}

void pl011_putc(uintptr_t base, char c)
{
	while (mmio_read32(base + UARTFR) & FR_TXFF)
		;
	mmio_write32(base + UARTDR, (uint8_t)c);
}

void pl011_enable_rx_irq(uintptr_t base)
{
	mmio_write32(base + UARTIMSC, INT_RX | INT_RT);
}

void pl011_disable_rx_irq(uintptr_t base)
{
	mmio_write32(base + UARTIMSC, 0);
}

/* The deepest receive FIFO of the PL011's revisions (r1p5). */
#define PL011_RX_FIFO   32

unsigned int pl011_rx_irq(uintptr_t base, void (*rx)(void *ctx, const char *buf, unsigned int n), void *ctx)
{
	unsigned int overruns = 0;

	/*
	 * Clear first, then drain: a byte that lands after the last empty
	 * check raises the interrupt again. Clearing after the drain would
	 * swallow that edge and leave the byte, and every later one, unseen
	 * (QEMU's PL011 then stops receiving altogether).
	 */
	mmio_write32(base + UARTICR, INT_RX | INT_RT);
	for (;;) {
		char buf[PL011_RX_FIFO];
		unsigned int n = 0;

		while (n < sizeof(buf) && !(mmio_read32(base + UARTFR) & FR_RXFE)) {
			uint32_t dr = mmio_read32(base + UARTDR);

			overruns += (dr & DR_OE) != 0;
			buf[n++] = (char)(dr & 0xff);
		}
		if (n)
			rx(ctx, buf, n);
		if (n < sizeof(buf))
			return overruns;
	}
}
