/* ARM SP804 dual-input timer (DDI0271). */
#include <drivers/sp804.h>
#include <drivers/mmio.h>

#define TIMER_LOAD      0x00
#define TIMER_VALUE     0x04
#define TIMER_CTRL      0x08
#define TIMER_INTCLR    0x0c
#define TIMER_MIS       0x14

#define CTRL_ONESHOT    (1u << 0)
#define CTRL_32BIT      (1u << 1)
#define CTRL_IE         (1u << 5)
#define CTRL_PERIODIC   (1u << 6)
#define CTRL_ENABLE     (1u << 7)

void sp804_start_periodic(uintptr_t base, uint32_t clk_hz, uint32_t hz)
{
	mmio_write32(base + TIMER_CTRL, 0);
	mmio_write32(base + TIMER_INTCLR, 1);
	mmio_write32(base + TIMER_LOAD, clk_hz / hz);
	mmio_write32(base + TIMER_CTRL, CTRL_ENABLE | CTRL_PERIODIC | CTRL_32BIT | CTRL_IE);
}

void sp804_start_oneshot(uintptr_t base, uint32_t ticks)
{
	mmio_write32(base + TIMER_CTRL, 0);
	mmio_write32(base + TIMER_INTCLR, 1);
	mmio_write32(base + TIMER_LOAD, ticks ? ticks : 1);
	mmio_write32(base + TIMER_CTRL, CTRL_ENABLE | CTRL_ONESHOT | CTRL_32BIT | CTRL_IE);
}

void sp804_stop(uintptr_t base)
{
	mmio_write32(base + TIMER_CTRL, 0);
	mmio_write32(base + TIMER_INTCLR, 1);
}

void sp804_clear_irq(uintptr_t base)
{
	mmio_write32(base + TIMER_INTCLR, 1);
}

uint32_t sp804_value(uintptr_t base)
{
	return mmio_read32(base + TIMER_VALUE);
}

int sp804_irq_pending(uintptr_t base)
{
	return mmio_read32(base + TIMER_MIS) & 1;
}
