/*
 * ASPEED AST2400 timers (datasheet "Timer"; Linux: timer-fttmr010.c, the
 * aspeed variant). Control register bits per timer n (1..8), at 4*(n-1):
 * 0 enable, 1 clock (0: PCLK, 1: external 1 MHz), 2 overflow interrupt,
 * 3 pulse (timers 4..8).
 */
#include <drivers/aspeed_timer.h>
#include <drivers/mmio.h>

#define TIMER_COUNT     0x00
#define TIMER_RELOAD    0x04
#define TIMER_MATCH1    0x08
#define TIMER_MATCH2    0x0c
#define TIMER_CTRL      0x30

#define CTRL_ENABLE     1u
#define CTRL_EXT_CLK    2u
#define CTRL_IRQ        4u
#define CTRL_SHIFT(n)   (4u * ((n) - 1))

static void ctrl_write(uintptr_t base, unsigned int n, uint32_t bits)
{
	uint32_t ctrl = mmio_read32(base + TIMER_CTRL);

	ctrl &= ~(0xfu << CTRL_SHIFT(n));
	mmio_write32(base + TIMER_CTRL, ctrl | (bits << CTRL_SHIFT(n)));
}

void aspeed_timer_init(uintptr_t base)
{
	uint32_t ext = 0;

	for (unsigned int n = 1; n <= 8; n++)
		ext |= CTRL_EXT_CLK << CTRL_SHIFT(n);
	mmio_write32(base + TIMER_CTRL, ext);
}

void aspeed_timer_start(uintptr_t base, unsigned int n, uint32_t reload, unsigned int flags)
{
	uintptr_t t = base + ASPEED_TIMER_REGS(n);
	uint32_t bits = (flags & ASPEED_TIMER_PCLK ? 0 : CTRL_EXT_CLK) |
			(flags & ASPEED_TIMER_IRQ ? CTRL_IRQ : 0);

	ctrl_write(base, n, bits);              /* stopped, clock and interrupt chosen */
	/* Match registers at 0: no interrupt before the counter reaches zero. */
	mmio_write32(t + TIMER_MATCH1, 0);
	mmio_write32(t + TIMER_MATCH2, 0);
	mmio_write32(t + TIMER_RELOAD, reload);
	mmio_write32(t + TIMER_COUNT, reload);
	ctrl_write(base, n, bits | CTRL_ENABLE);
}

void aspeed_timer_stop(uintptr_t base, unsigned int n)
{
	ctrl_write(base, n, CTRL_EXT_CLK);
}
