/* 16550 UART: polled output, interrupt-driven input. Register i at base + 4 * i. */
#include <drivers/ns16550.h>
#include <drivers/mmio.h>

#define UART_RBR        0x00    /* read, DLAB 0 */
#define UART_THR        0x00    /* write, DLAB 0 */
#define UART_DLL        0x00    /* DLAB 1 */
#define UART_IER        0x04    /* DLAB 0 */
#define UART_DLM        0x04    /* DLAB 1 */
#define UART_FCR        0x08    /* write */
#define UART_LCR        0x0c
#define UART_MCR        0x10
#define UART_LSR        0x14

#define IER_RDI         0x01    /* received data (and FIFO time-out) */
#define FCR_ENABLE      0x01
#define FCR_CLEAR_RX    0x02
#define FCR_CLEAR_TX    0x04
#define FCR_TRIG_8      0x80    /* receive interrupt at 8 bytes (or time-out) */
#define LCR_8N1         0x03
#define LCR_DLAB        0x80
#define MCR_DTR_RTS     0x03
#define MCR_OUT2        0x08    /* gates the interrupt output on PC-style wiring */
#define LSR_DR          0x01
#define LSR_OE          0x02
#define LSR_THRE        0x20

void ns16550_init(uintptr_t base, uint32_t uartclk, uint32_t baud)
{
	uint32_t div = (uartclk + 8 * baud) / (16 * baud);

	if (div == 0)
		div = 1;
	mmio_write32(base + UART_IER, 0);
	mmio_write32(base + UART_LCR, LCR_DLAB);
	mmio_write32(base + UART_DLL, div & 0xff);
	mmio_write32(base + UART_DLM, (div >> 8) & 0xff);
	mmio_write32(base + UART_LCR, LCR_8N1);
	mmio_write32(base + UART_FCR, FCR_ENABLE | FCR_CLEAR_RX | FCR_CLEAR_TX | FCR_TRIG_8);
	mmio_write32(base + UART_MCR, MCR_DTR_RTS | MCR_OUT2);
}

void ns16550_putc(uintptr_t base, char c)
{
	while (!(mmio_read32(base + UART_LSR) & LSR_THRE))
		;
	mmio_write32(base + UART_THR, (uint8_t)c);
}

void ns16550_enable_rx_irq(uintptr_t base)
{
	mmio_write32(base + UART_IER, IER_RDI);
}

void ns16550_disable_rx_irq(uintptr_t base)
{
	mmio_write32(base + UART_IER, 0);
}

/* A 16550's receive FIFO. */
#define NS16550_RX_FIFO 16

unsigned int ns16550_rx_irq(uintptr_t base, void (*rx)(void *ctx, const char *buf, unsigned int n), void *ctx)
{
	unsigned int overruns = 0;
	uint32_t lsr;

	/* Reading the LSR clears the overrun flag; draining RBR drops the interrupt. */
	for (;;) {
		char buf[NS16550_RX_FIFO];
		unsigned int n = 0;

		while (n < sizeof(buf) && ((lsr = mmio_read32(base + UART_LSR)) & (LSR_DR | LSR_OE))) {
			overruns += (lsr & LSR_OE) != 0;
			if (!(lsr & LSR_DR))
				break;
			buf[n++] = (char)(mmio_read32(base + UART_RBR) & 0xff);
		}
		if (n)
			rx(ctx, buf, n);
		if (n < sizeof(buf))
			return overruns;
	}
}
