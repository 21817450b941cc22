/*
 * AST2400 wiring: which driver serves which job, at which address and
 * interrupt line (all from board.h). UNTESTED ON HARDWARE; runs under
 * QEMU's palmetto-bmc.
 */
#include <stddef.h>
#include <stdint.h>
#include <asm/mach.h>
#include <asm/irq_desc.h>
#include <asm/irqflags.h>
#include <lokal/platform.h>
#include <lokal/irq.h>
#include <lokal/console_rx.h>
#include <lokal/console-dma.h>
#include <lokal/dma-memcpy.h>
#include <drivers/aspeed_vic.h>
#include <drivers/aspeed_timer.h>
#include <drivers/aspeed_gpio.h>
#include <drivers/aspeed_xdma.h>
#include <drivers/aspeed_wdt.h>
#include <drivers/aspeed_scu.h>
#include <drivers/ns16550.h>
#include <generated/config.h>
#include <board.h>

_Static_assert(CONFIG_RAM_MB <= BOARD_RAM_MAX_MB, "the AST2400 addresses at most 512 MiB of SDRAM");

const struct board_io_region board_io_regions[] = {
	{ BOARD_DEV_BASE, BOARD_DEV_SIZE },
};
const unsigned int board_nr_io_regions = sizeof(board_io_regions) / sizeof(board_io_regions[0]);

const unsigned int board_soft_irq = BOARD_SOFT_IRQ;

/* Set in board_init_irq(): the VIC raises the soft line itself (silicon), else the XDMA does. */
static int soft_by_vic;

void board_early_init(void)
{
	ns16550_init(BOARD_UART5_BASE, BOARD_UART_CLK_HZ, BOARD_CONSOLE_BAUD);
}

void board_init_irq(void)
{
	aspeed_vic_init(BOARD_VIC_BASE);
	soft_by_vic = aspeed_vic_soft_works(BOARD_VIC_BASE, BOARD_SOFT_IRQ);
	if (!soft_by_vic)
		aspeed_xdma_irq_init(BOARD_XDMA_BASE);
}

static void console_irq(unsigned int irq, void *arg)
{
	(void)irq;
	console_rx_overruns(ns16550_rx_irq(BOARD_UART5_BASE, console_rx_bytes, arg));
}

/* PCLK, from the SCU's clock setup: clock_read()'s rate. */
static uint32_t counter_hz;

void board_init(void)
{
	aspeed_timer_init(BOARD_TIMER_BASE);
	/* Free-running at PCLK: reload 0xffffffff, no interrupt; clock_read() inverts it. */
	aspeed_timer_start(BOARD_TIMER_BASE, BOARD_COUNTER_TIMER, 0xffffffffu, ASPEED_TIMER_PCLK);
	counter_hz = aspeed_scu_pclk_hz(BOARD_SCU_BASE);
	aspeed_gpio_write(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_GPIO_RDATA, BOARD_MARKER_PIN, 0);
	aspeed_gpio_write(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_GPIO_RDATA, BOARD_WAKE_PIN, 0);
	aspeed_gpio_set_output(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_PIN);
	aspeed_gpio_set_output(BOARD_MARKER_GPIO_BASE, BOARD_WAKE_PIN);
	request_irq(BOARD_UART5_IRQ, console_irq, NULL);
	ns16550_enable_rx_irq(BOARD_UART5_BASE);
}

void board_console_putc(char c)
{
	ns16550_putc(BOARD_UART5_BASE, c);
}

/*
 * Every line pending at one read of both status words; an edge line's
 * latch is cleared before its handler, so an edge that comes while the
 * handler runs is taken again.
 */
/*
 * The highest line pending, word 0 first, one per entry: a line still
 * pending keeps the IRQ input asserted, so the vector is taken again at
 * the return (or at the exit's window before a switch), and each
 * interrupt's handler window is its own (irqs_off_handler_kernel_max_insns).
 */
void board_handle_irq(void)
{
	for (unsigned int w = 0; w < 2; w++) {
		uint32_t pending = aspeed_vic_pending(BOARD_VIC_BASE, w);

		if (pending != 0) {
			unsigned int irq = 32u * w + 31u - (unsigned int)__builtin_clz(pending);

			if (aspeed_vic_is_edge(irq))
				aspeed_vic_edge_ack(BOARD_VIC_BASE, irq);
			generic_handle_irq(irq);
			return;
		}
	}
	spurious_irq();
}

void board_irq_unmask(unsigned int irq)    { aspeed_vic_unmask(BOARD_VIC_BASE, irq); }
void board_irq_mask(unsigned int irq)      { aspeed_vic_mask(BOARD_VIC_BASE, irq); }

void board_irq_raise_soft(unsigned int irq)
{
	if (soft_by_vic)
		aspeed_vic_soft_raise(BOARD_VIC_BASE, irq);
	else if (irq == BOARD_SOFT_IRQ)
		aspeed_xdma_irq_raise(BOARD_XDMA_BASE);
}

void board_irq_clear_soft(unsigned int irq)
{
	if (soft_by_vic)
		aspeed_vic_soft_clear(BOARD_VIC_BASE, irq);
	else if (irq == BOARD_SOFT_IRQ)
		aspeed_xdma_irq_clear(BOARD_XDMA_BASE);
}

/* ---- <lokal/platform.h> ---- */

uint32_t clock_read(void)
{
	return ~aspeed_timer_count(BOARD_TIMER_BASE, BOARD_COUNTER_TIMER);
}

uint32_t clock_hz(void)
{
	return counter_hz;
}

static void tick_irq(unsigned int irq, void *arg)
{
	(void)irq; (void)arg;
	sched_tick();
}

void tick_start(unsigned int hz)
{
	request_irq(BOARD_TIMER1_IRQ, tick_irq, NULL);
	aspeed_timer_start(BOARD_TIMER_BASE, BOARD_TICK_TIMER, BOARD_TIMER_CLK_HZ / hz, ASPEED_TIMER_IRQ);
}

unsigned int oneshot_timer_irq(void)
{
	return BOARD_TIMER2_IRQ;
}

/* The timers share one control register: its read-modify-write runs with interrupts off. */
_Static_assert(1000000000u % BOARD_TIMER_CLK_HZ == 0, "whole ns per timer tick");

uint32_t oneshot_timer_arm(uint32_t us)
{
	uint64_t ticks = (uint64_t)us * BOARD_TIMER_CLK_HZ / 1000000u;
	unsigned long flags;

	ticks = ticks == 0 ? 1 : ticks > 0xffffffffu ? 0xffffffffu : ticks;
	/* A multiply, no division: nothing of it may land in the masked stretch below. */
	uint32_t ns = (uint32_t)ticks * (1000000000u / BOARD_TIMER_CLK_HZ);

	flags = arch_local_irq_save();
	aspeed_timer_start(BOARD_TIMER_BASE, BOARD_ONESHOT_TIMER, (uint32_t)ticks, ASPEED_TIMER_IRQ);
	arch_local_irq_restore(flags);
	return ns;
}

/* The timer reloads at zero: stop it, so it fires once. */
void oneshot_timer_ack(void)
{
	unsigned long flags = arch_local_irq_save();

	aspeed_timer_stop(BOARD_TIMER_BASE, BOARD_ONESHOT_TIMER);
	arch_local_irq_restore(flags);
}

static void marker_write(unsigned int pin, int level)
{
	unsigned long flags = arch_local_irq_save();

	aspeed_gpio_write(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_GPIO_RDATA, pin, level);
	arch_local_irq_restore(flags);
}

void switch_marker_set(int level)
{
	marker_write(BOARD_MARKER_PIN, level);
}

void wake_marker_set(int level)
{
	marker_write(BOARD_WAKE_PIN, level);
}

void switch_marker_enable(int on)
{
	unsigned long flags = arch_local_irq_save();

	if (on)
		aspeed_gpio_set_output(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_PIN);
	else
		aspeed_gpio_set_input(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_PIN);
	arch_local_irq_restore(flags);
}

void machine_reset(void)
{
	uint32_t t0 = clock_read();

	/* The watchdog resets the whole chip 1 ms from now; give it 100 ms. */
	aspeed_wdt_reset_in(BOARD_WDT1_BASE, 1000);
	while (clock_read() - t0 < counter_hz / 10)
		;
}

/*
 * No memory-to-memory DMA: the XDMA engine copies between the host's PCIe
 * space and the BMC's memory, and QEMU's model moves no data.
 */
const struct dma_memcpy_ops *board_dma_memcpy(void)
{
	return NULL;
}

/* The UART is driven by its interrupt; the SoC's UART DMA is not modelled by QEMU. */
const struct console_dma_ops *board_console_dma(void)
{
	return NULL;
}
