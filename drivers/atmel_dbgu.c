/* Atmel DBGU (AT91SAM9G20 datasheet, "Debug Unit"): polled output, IRQ input. */
#include <drivers/atmel_dbgu.h>
#include <drivers/mmio.h>

#define DBGU_CR         0x00
#define DBGU_MR         0x04
#define DBGU_IER        0x08
#define DBGU_IDR        0x0c
#define DBGU_IMR        0x10
#define DBGU_SR         0x14
#define DBGU_RHR        0x18
#define DBGU_THR        0x1c
#define DBGU_BRGR       0x20

#define CR_RSTRX        (1u << 2)
#define CR_RSTTX        (1u << 3)
#define CR_RXEN         (1u << 4)
#define CR_TXEN         (1u << 6)
#define CR_RSTSTA       (1u << 8)
#define MR_PAR_NONE     (4u << 9)
#define SR_RXRDY        (1u << 0)
#define SR_TXRDY        (1u << 1)
#define SR_OVRE         (1u << 5)
#define SR_FRAME        (1u << 6)
#define SR_PARE         (1u << 7)

void atmel_dbgu_init(uintptr_t base, uint32_t mck_hz, uint32_t baud)
{
	mmio_write32(base + DBGU_IDR, 0xffffffffu);
	mmio_write32(base + DBGU_CR, CR_RSTRX | CR_RSTTX | CR_RSTSTA);
	/* CD = MCK / (16 * baud), rounded to nearest. */
	mmio_write32(base + DBGU_BRGR, (mck_hz + 8 * baud) / (16 * baud));
	mmio_write32(base + DBGU_MR, MR_PAR_NONE);
	mmio_write32(base + DBGU_CR, CR_RXEN | CR_TXEN);
}

void atmel_dbgu_putc(uintptr_t base, char c)
{
	while (!(mmio_read32(base + DBGU_SR) & SR_TXRDY))
		;
	mmio_write32(base + DBGU_THR, (uint8_t)c);
}

void atmel_dbgu_enable_rx_irq(uintptr_t base)
{
	mmio_write32(base + DBGU_IER, SR_RXRDY);
}

void atmel_dbgu_disable_rx_irq(uintptr_t base)
{
	mmio_write32(base + DBGU_IDR, SR_RXRDY);
}

int atmel_dbgu_irq_pending(uintptr_t base)
{
	return (mmio_read32(base + DBGU_SR) & mmio_read32(base + DBGU_IMR)) != 0;
}

unsigned int atmel_dbgu_rx_irq(uintptr_t base, void (*rx)(void *ctx, const char *buf, unsigned int n), void *ctx)
{
	unsigned int overruns = 0;
	uint32_t sr;

	/*
	 * OVRE is sticky until RSTSTA: check it on every status read. One
	 * holding register: a byte per call, which is all a handler finds.
	 */
	while ((sr = mmio_read32(base + DBGU_SR)) & SR_RXRDY) {
		char c;

		overruns += (sr & SR_OVRE) != 0;
		if (sr & SR_OVRE)
			mmio_write32(base + DBGU_CR, CR_RSTSTA);
		c = (char)(mmio_read32(base + DBGU_RHR) & 0xff);
		rx(ctx, &c, 1);
	}
	overruns += (sr & SR_OVRE) != 0;
	if (sr & (SR_OVRE | SR_FRAME | SR_PARE))
		mmio_write32(base + DBGU_CR, CR_RSTSTA);
	return overruns;
}
