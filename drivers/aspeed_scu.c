/*
 * ASPEED AST2400 SCU clock decode (AST2400 datasheet "SCU"; the same rules
 * as Linux's clk-aspeed.c and QEMU's aspeed_scu.c for the AST2400):
 *   CLKIN  24 MHz, or 25 MHz when strap bit 23 is set
 *   H-PLL  SCU24 when its "programmed" bit is set: CLKIN in bypass, else
 *          CLKIN * (2 - OD) * (N + 2) / (D + 1); otherwise the strap's
 *          bits 9:8 pick one of four rates
 *   PCLK   H-PLL / ((SCU08[25:23] + 1) * 2)
 */
#include <drivers/aspeed_scu.h>
#include <drivers/mmio.h>

#define SCU_CLK_SEL             0x08
#define SCU_HPLL_PARAM          0x24
#define SCU_HW_STRAP1           0x70

#define HPLL_OFF                (1u << 16)
#define HPLL_BYPASS             (1u << 17)
#define HPLL_PROGRAMMED         (1u << 18)
#define STRAP_CLKIN_25MHZ       (1u << 23)

uint32_t aspeed_scu_pclk_hz(uintptr_t base)
{
	/* H-PLL rates the strap selects, in MHz, for a 24 and a 25 MHz CLKIN. */
	static const uint16_t strap_mhz[2][4] = {
		{ 384, 360, 336, 408 },
		{ 400, 375, 350, 425 },
	};
	uint32_t strap = mmio_read32(base + SCU_HW_STRAP1);
	uint32_t hpll = mmio_read32(base + SCU_HPLL_PARAM);
	unsigned int clk25 = (strap & STRAP_CLKIN_25MHZ) != 0;
	uint64_t clkin = clk25 ? 25000000u : 24000000u;
	uint64_t rate;
	uint32_t div = (((mmio_read32(base + SCU_CLK_SEL) >> 23) & 7) + 1) * 2;

	if (hpll & HPLL_OFF)
		return 0;
	if (!(hpll & HPLL_PROGRAMMED)) {
		rate = strap_mhz[clk25][(strap >> 8) & 3] * 1000000ull;
	} else if (hpll & HPLL_BYPASS) {
		rate = clkin;
	} else {
		uint32_t n = (hpll >> 5) & 0x3f, od = (hpll >> 4) & 1, d = hpll & 0xf;

		rate = clkin * (2 - od) * (n + 2) / (d + 1);
	}
	return (uint32_t)(rate / div);
}
