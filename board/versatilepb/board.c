/*
 * Versatile/PB wiring: which driver serves which job, at which address and
 * interrupt line (all from board.h).
 */
#include <stddef.h>
#include <stdint.h>
#include <asm/mach.h>
#include <asm/irq_desc.h>
#include <lokal/platform.h>
#include <lokal/irq.h>
#include <lokal/console_rx.h>
#include <drivers/pl011.h>
#include <drivers/pl190.h>
#include <drivers/sp804.h>
#include <drivers/pl061.h>
#include <drivers/versatile_sysctl.h>
#include <drivers/mmio.h>
#include <board.h>

/* System controller: the reset register is behind a lock key. */
#define SYS_LOCK                0x20
#define SYS_LOCK_KEY            0xa05fu
#define SYS_RESETCTL            0x40
#define SYS_RESETCTL_PUSH       0x105u  /* reset push + level "system reset" */

const struct board_io_region board_io_regions[] = {
	{ BOARD_DEV_BASE, BOARD_DEV_SIZE },
	{ BOARD_FLASH_BASE, BOARD_FLASH_SIZE },
};
const unsigned int board_nr_io_regions = sizeof(board_io_regions) / sizeof(board_io_regions[0]);

/* VIC line 1 is the PL190's own "software interrupt" input: nothing drives it. */
const unsigned int board_soft_irq = 1;

void board_early_init(void)
{
	pl011_init(BOARD_UART0_BASE, BOARD_UART_CLK_HZ, BOARD_CONSOLE_BAUD);
}

void board_init_irq(void)
{
	pl190_init(BOARD_VIC_BASE);
	versatile_sic_init(BOARD_SIC_BASE);
}

/*
 * Receive interrupts are coalesced: after each one the UART's receive
 * interrupt stays masked for CONSOLE_RX_HOLDOFF_US while its 16-byte FIFO
 * collects what arrives (1.4 ms of input at 115200 baud), so typing or
 * pasting costs real-time threads at most ~2000 interrupts a second
 * instead of one per byte. Half a millisecond: each interrupt then drains
 * about six bytes, and its window, which delays every other interrupt,
 * stays short (cyclic_handler_max_insns in results.json: the cyclic
 * test's console load sends at the full 115200 baud). The spare half of
 * the tick's SP804 ends it.
 */
#define CONSOLE_RX_HOLDOFF_US   500
#define HOLDOFF_TIMER           (BOARD_TIMER01_BASE + SP804_TIMER1)

static void console_irq(unsigned int irq, void *arg)
{
	(void)irq;
	console_rx_overruns(pl011_rx_irq(BOARD_UART0_BASE, console_rx_bytes, arg));
	pl011_disable_rx_irq(BOARD_UART0_BASE);
	sp804_start_oneshot(HOLDOFF_TIMER,
			    CONSOLE_RX_HOLDOFF_US * (BOARD_TIMER_CLK_HZ / 1000000u));
}

void board_init(void)
{
	pl061_set_output(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_PIN);
	pl061_set_output(BOARD_MARKER_GPIO_BASE, BOARD_WAKE_PIN);
	request_irq(BOARD_UART0_IRQ, console_irq, NULL);
	pl011_enable_rx_irq(BOARD_UART0_BASE);
}

void board_console_putc(char c)
{
	pl011_putc(BOARD_UART0_BASE, c);
}

void board_irq_unmask(unsigned int irq)    { pl190_unmask(BOARD_VIC_BASE, irq); }
void board_irq_mask(unsigned int irq)      { pl190_mask(BOARD_VIC_BASE, irq); }

/* ---- <lokal/platform.h> ---- */

uint32_t clock_read(void)
{
	return versatile_counter_read(BOARD_COUNTER_24MHZ);
}

uint32_t clock_hz(void)
{
	return BOARD_COUNTER_HZ;
}

/* The tick and the console's receive holdoff share the SP804's line. */
static void tick_irq(unsigned int irq, void *arg)
{
	(void)irq; (void)arg;
	if (sp804_irq_pending(HOLDOFF_TIMER)) {
		sp804_stop(HOLDOFF_TIMER);
		pl011_enable_rx_irq(BOARD_UART0_BASE);
	}
	if (sp804_irq_pending(BOARD_TIMER01_BASE + SP804_TIMER0)) {
		sp804_clear_irq(BOARD_TIMER01_BASE + SP804_TIMER0);
		sched_tick();
	}
}

void tick_start(unsigned int hz)
{
	request_irq(BOARD_TIMER01_IRQ, tick_irq, NULL);
	sp804_start_periodic(BOARD_TIMER01_BASE + SP804_TIMER0, BOARD_TIMER_CLK_HZ, hz);
}

unsigned int oneshot_timer_irq(void)
{
	return BOARD_TIMER23_IRQ;
}

_Static_assert(1000000000u % BOARD_TIMER_CLK_HZ == 0, "whole ns per timer tick");

uint32_t oneshot_timer_arm(uint32_t us)
{
	uint32_t ticks = (uint32_t)((uint64_t)us * BOARD_TIMER_CLK_HZ / 1000000u);

	sp804_start_oneshot(BOARD_TIMER23_BASE + SP804_TIMER0, ticks);
	/* A multiply, no division: the bench reads the clock before the arm. */
	return ticks * (1000000000u / BOARD_TIMER_CLK_HZ);
}

void oneshot_timer_ack(void)
{
	sp804_clear_irq(BOARD_TIMER23_BASE + SP804_TIMER0);
}

void switch_marker_set(int level)
{
	pl061_write(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_PIN, level);
}

void wake_marker_set(int level)
{
	pl061_write(BOARD_MARKER_GPIO_BASE, BOARD_WAKE_PIN, level);
}

void switch_marker_enable(int on)
{
	if (on)
		pl061_set_output(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_PIN);
	else
		pl061_set_input(BOARD_MARKER_GPIO_BASE, BOARD_MARKER_PIN);
}

void machine_reset(void)
{
	/* SYS_RESETCTL takes a write only while SYS_LOCK holds the unlock key. */
	mmio_write32(BOARD_SYSCTL_BASE + SYS_LOCK, SYS_LOCK_KEY);
	mmio_write32(BOARD_SYSCTL_BASE + SYS_RESETCTL, SYS_RESETCTL_PUSH);
}
