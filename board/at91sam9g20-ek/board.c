/*
 * AT91SAM9G20-EK wiring: which driver serves which job, at which address
 * and interrupt line (all from board.h). UNTESTED ON HARDWARE.
 *
 * The AIC's system line (id 1) is shared by the PIT and the DBGU; it is
 * split here into the virtual lines BOARD_PIT_IRQ and BOARD_DBGU_IRQ.
 */
#include <stddef.h>
#include <stdint.h>
#include <asm/mach.h>
#include <asm/irq_desc.h>
#include <lokal/platform.h>
#include <lokal/irq.h>
#include <lokal/console_rx.h>
#include <lokal/console-dma.h>
#include <lokal/dma-memcpy.h>
#include <drivers/atmel_aic.h>
#include <drivers/atmel_dbgu.h>
#include <drivers/atmel_pio.h>
#include <drivers/atmel_pit.h>
#include <drivers/atmel_pmc.h>
#include <drivers/atmel_tcb.h>
#include <generated/config.h>
#include <board.h>
#include <drivers/mmio.h>
#include "sys-pages.h"

#define BOARD_RSTC_CR           0xfffffd00u   /* reset controller, in system page 1 */

_Static_assert(CONFIG_RAM_MB <= BOARD_RAM_MAX_MB, "the AT91SAM9G20-EK has 64 MiB of SDRAM");

const struct board_io_region board_io_regions[] = {
	{ BOARD_DEV_BASE, BOARD_DEV_SIZE },
};
const unsigned int board_nr_io_regions = sizeof(board_io_regions) / sizeof(board_io_regions[0]);

const unsigned int board_soft_irq = BOARD_SOFT_IRQ;

void board_early_init(void)
{
	atmel_pmc_enable_periph(BOARD_PMC_BASE, (1u << BOARD_PIOA_ID) |
				(1u << BOARD_PIOB_ID) | (1u << BOARD_PIOC_ID));
	atmel_pio_set_periph_a(BOARD_DBGU_PIO_BASE, BOARD_DBGU_RXD_PIN);
	atmel_pio_set_periph_a(BOARD_DBGU_PIO_BASE, BOARD_DBGU_TXD_PIN);
	atmel_dbgu_init(BOARD_DBGU_BASE, BOARD_MCK_HZ, BOARD_CONSOLE_BAUD);
}

void board_init_irq(void)
{
	/* First thing with the MMU on: nothing below is reachable before. */
	board_map_sys_pages();
	atmel_aic_init(BOARD_AIC_BASE, 1u << BOARD_SOFT_IRQ);
}

static void console_irq(unsigned int irq, void *arg)
{
	(void)irq;
	console_rx_overruns(atmel_dbgu_rx_irq(BOARD_DBGU_BASE, console_rx_bytes, arg));
}

void board_init(void)
{
	atmel_pmc_enable_periph(BOARD_PMC_BASE, (1u << BOARD_TC0_ID) |
				(1u << BOARD_TC1_ID) | (1u << BOARD_TC2_ID));
	atmel_tcb_counter32_start(BOARD_TCB0_BASE, BOARD_COUNTER_CLK);
	atmel_pio_set_output(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_PIN, 0);
	atmel_pio_set_output(BOARD_MARKER_GPIO_BASE, BOARD_WAKE_PIN, 0);
	request_irq(BOARD_DBGU_IRQ, console_irq, NULL);
}

void board_console_putc(char c)
{
	atmel_dbgu_putc(BOARD_DBGU_BASE, c);
}

/* The system line: hand each requesting source to its virtual line. */
static void handle_sys_irq(void)
{
	if (atmel_pit_irq_pending(BOARD_PIT_BASE))
		generic_handle_irq(BOARD_PIT_IRQ);
	if (atmel_dbgu_irq_pending(BOARD_DBGU_BASE))
		generic_handle_irq(BOARD_DBGU_IRQ);
}

/*
 * One source per entry, the AIC's choice: one still pending asserts nIRQ
 * again, so the vector is taken again at the return (or at the exit's
 * window before a switch), and each interrupt's handler window is its own
 * (irqs_off_handler_kernel_max_insns).
 */
void board_handle_irq(void)
{
	int irq = atmel_aic_ack(BOARD_AIC_BASE);

	if (irq == AIC_NO_IRQ) {
		atmel_aic_eoi(BOARD_AIC_BASE);  /* the spurious read needs one too */
		spurious_irq();
		return;
	}
	if (irq == BOARD_SYS_AIC_ID)
		handle_sys_irq();
	else
		generic_handle_irq((unsigned int)irq);
	atmel_aic_eoi(BOARD_AIC_BASE);
}

void board_irq_unmask(unsigned int irq)
{
	if (irq == BOARD_PIT_IRQ)
		atmel_pit_irq_enable(BOARD_PIT_BASE, 1);
	else if (irq == BOARD_DBGU_IRQ)
		atmel_dbgu_enable_rx_irq(BOARD_DBGU_BASE);
	else {
		atmel_aic_unmask(BOARD_AIC_BASE, irq);
		return;
	}
	atmel_aic_unmask(BOARD_AIC_BASE, BOARD_SYS_AIC_ID);
}

/* A virtual line is masked at its source: the shared AIC line stays on. */
void board_irq_mask(unsigned int irq)
{
	if (irq == BOARD_PIT_IRQ)
		atmel_pit_irq_enable(BOARD_PIT_BASE, 0);
	else if (irq == BOARD_DBGU_IRQ)
		atmel_dbgu_disable_rx_irq(BOARD_DBGU_BASE);
	else
		atmel_aic_mask(BOARD_AIC_BASE, irq);
}

void board_irq_raise_soft(unsigned int irq) { atmel_aic_set(BOARD_AIC_BASE, irq); }
void board_irq_clear_soft(unsigned int irq) { atmel_aic_clear(BOARD_AIC_BASE, irq); }

/* ---- <lokal/platform.h> ---- */

uint32_t clock_read(void)
{
	return atmel_tcb_counter32_read(BOARD_TCB0_BASE);
}

uint32_t clock_hz(void)
{
	return BOARD_COUNTER_HZ;
}

static void tick_irq(unsigned int irq, void *arg)
{
	(void)irq; (void)arg;
	atmel_pit_ack(BOARD_PIT_BASE);
	sched_tick();
}

void tick_start(unsigned int hz)
{
	atmel_pit_start(BOARD_PIT_BASE, BOARD_PIT_CLK_HZ, hz);
	request_irq(BOARD_PIT_IRQ, tick_irq, NULL);
}

unsigned int oneshot_timer_irq(void)
{
	return BOARD_ONESHOT_IRQ;
}

uint32_t oneshot_timer_arm(uint32_t us)
{
	uint64_t ticks = (uint64_t)us * BOARD_ONESHOT_HZ / 1000000u;

	/* 16-bit channel: clamp rather than wrap to a much shorter delay. */
	if (ticks > 0xffff)
		ticks = 0xffff;
	atmel_tcb_oneshot(BOARD_TCB0_BASE, BOARD_ONESHOT_CH, BOARD_ONESHOT_CLK, (uint16_t)ticks);
	/* ns per tick in 1/256ths, a constant: a multiply and a shift, no division. */
	return (uint32_t)((ticks * ((256ull * 1000000000u + BOARD_ONESHOT_HZ / 2) / BOARD_ONESHOT_HZ)) >> 8);
}

void oneshot_timer_ack(void)
{
	atmel_tcb_ack(BOARD_TCB0_BASE, BOARD_ONESHOT_CH);
}

void wake_marker_set(int level)
{
	atmel_pio_write(BOARD_MARKER_GPIO_BASE, BOARD_WAKE_PIN, level);
}

void switch_marker_set(int level)
{
	atmel_pio_write(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_PIN, level);
}

void switch_marker_enable(int on)
{
	if (on)
		atmel_pio_set_output(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_PIN, 0);
	else
		atmel_pio_set_input(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_PIN);
}

void machine_reset(void)
{
	/* RSTC_CR with its key: processor and peripheral reset. */
	mmio_write32(BOARD_RSTC_CR, 0xa5000000u | 0x1u | 0x4u);
}

/* The PDC moves data for peripherals only: no memory-to-memory DMA here. */
const struct dma_memcpy_ops *board_dma_memcpy(void)
{
	return NULL;
}

static int dbgu_pdc_write(struct page *pg, unsigned int offset, size_t len, long timeout)
{
	return atmel_dbgu_pdc_write(BOARD_DBGU_BASE, pg, offset, len, (unsigned int)timeout);
}

static const struct console_dma_ops dbgu_pdc_ops = {
	.name = "DBGU's PDC",
	.write = dbgu_pdc_write,
};

/* The console's transmitter has a PDC channel: lines leave memory by DMA. */
const struct console_dma_ops *board_console_dma(void)
{
	return &dbgu_pdc_ops;
}
