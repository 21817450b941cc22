/* Atmel TC block (AT91SAM9G20 datasheet, "Timer Counter"). */
#include <drivers/atmel_tcb.h>
#include <drivers/mmio.h>

#define TC_CH(ch)       (0x40u * (ch))
#define TC_CCR          0x00
#define TC_CMR          0x04
#define TC_CV           0x10
#define TC_RA           0x14
#define TC_RC           0x1c
#define TC_SR           0x20
#define TC_IER          0x24
#define TC_IDR          0x28
#define TC_BCR          0xc0
#define TC_BMR          0xc4

#define CCR_CLKEN       (1u << 0)
#define CCR_CLKDIS      (1u << 1)
#define CCR_SWTRG       (1u << 2)
#define CMR_CLK_XC1     6u
#define CMR_CPCSTOP     (1u << 6)       /* waveform: stop the clock at RC */
#define CMR_WAVSEL_UP   (0u << 13)
#define CMR_WAVE        (1u << 15)
#define CMR_ACPA_SET    (1u << 16)
#define CMR_ACPC_CLEAR  (2u << 18)
#define SR_CPCS         (1u << 4)
#define BMR_TC1XC1S_TIOA0 (2u << 2)
#define BCR_SYNC        (1u << 0)

void atmel_tcb_counter32_start(uintptr_t base, unsigned int clk)
{
	/* TIOA0 rises at 0 and falls at 0x8000: one rising edge per wrap. */
	mmio_write32(base + TC_CH(0) + TC_CMR, clk | CMR_WAVE | CMR_WAVSEL_UP |
		     CMR_ACPA_SET | CMR_ACPC_CLEAR);
	mmio_write32(base + TC_CH(0) + TC_RA, 0);
	mmio_write32(base + TC_CH(0) + TC_RC, 0x8000);
	mmio_write32(base + TC_CH(0) + TC_IDR, 0xff);
	mmio_write32(base + TC_CH(0) + TC_CCR, CCR_CLKEN);

	mmio_write32(base + TC_CH(1) + TC_CMR, CMR_CLK_XC1 | CMR_WAVE | CMR_WAVSEL_UP);
	mmio_write32(base + TC_CH(1) + TC_IDR, 0xff);
	mmio_write32(base + TC_CH(1) + TC_CCR, CCR_CLKEN);

	mmio_write32(base + TC_BMR, BMR_TC1XC1S_TIOA0);
	mmio_write32(base + TC_BCR, BCR_SYNC);  /* start both from 0 together */
}

uint32_t atmel_tcb_counter32_read(uintptr_t base)
{
	uint32_t hi, lo;

	/* Re-read when the high half moved between the two reads. */
	do {
		hi = mmio_read32(base + TC_CH(1) + TC_CV);
		lo = mmio_read32(base + TC_CH(0) + TC_CV);
	} while (hi != mmio_read32(base + TC_CH(1) + TC_CV));
	return (hi << 16) | (lo & 0xffff);
}

void atmel_tcb_oneshot(uintptr_t base, unsigned int ch, unsigned int clk, uint16_t ticks)
{
	uintptr_t c = base + TC_CH(ch);

	mmio_write32(c + TC_CCR, CCR_CLKDIS);
	(void)mmio_read32(c + TC_SR);
	mmio_write32(c + TC_CMR, clk | CMR_WAVE | CMR_WAVSEL_UP | CMR_CPCSTOP);
	mmio_write32(c + TC_RC, ticks ? ticks : 1);
	mmio_write32(c + TC_IER, SR_CPCS);
	mmio_write32(c + TC_CCR, CCR_CLKEN | CCR_SWTRG);
}

void atmel_tcb_ack(uintptr_t base, unsigned int ch)
{
	(void)mmio_read32(base + TC_CH(ch) + TC_SR);
}
