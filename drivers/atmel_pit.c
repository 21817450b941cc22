/* Atmel PIT (AT91SAM9G20 datasheet, "Periodic Interval Timer"). */
#include <drivers/atmel_pit.h>
#include <drivers/mmio.h>

#define PIT_MR          0x00
#define PIT_SR          0x04
#define PIT_PIVR        0x08

#define MR_PIV_MASK     0x000fffffu
#define MR_PITEN        (1u << 24)
#define MR_PITIEN       (1u << 25)
#define SR_PITS         (1u << 0)

void atmel_pit_start(uintptr_t base, uint32_t pit_clk_hz, uint32_t hz)
{
	uint32_t piv = (pit_clk_hz / hz - 1) & MR_PIV_MASK;

	mmio_write32(base + PIT_MR, piv | MR_PITEN | MR_PITIEN);
	(void)mmio_read32(base + PIT_PIVR);     /* drop a stale period */
}

void atmel_pit_irq_enable(uintptr_t base, int on)
{
	uint32_t mr = mmio_read32(base + PIT_MR);

	mmio_write32(base + PIT_MR, on ? mr | MR_PITIEN : mr & ~MR_PITIEN);
}

int atmel_pit_irq_pending(uintptr_t base)
{
	return (mmio_read32(base + PIT_MR) & MR_PITIEN) &&
	       (mmio_read32(base + PIT_SR) & SR_PITS);
}

uint32_t atmel_pit_ack(uintptr_t base)
{
	/* PIVR's top 12 bits count periods; reading it clears them and PITS. */
	return mmio_read32(base + PIT_PIVR) >> 20;
}
