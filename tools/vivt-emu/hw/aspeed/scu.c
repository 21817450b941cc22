/*
 * ASPEED AST2400 SCU: the clock registers the firmware decodes PCLK from
 * (drivers/aspeed_scu.c), as a board with a 24 MHz CLKIN whose H-PLL the
 * strap sets to 384 MHz and whose PCLK divider makes pclk_hz of it. The
 * rest of the SCU reads as zero and ignores writes.
 */
#include <stdlib.h>
#include "hw/aspeed/aspeed.h"

#define SCU_CLK_SEL	0x08
#define SCU_HPLL_PARAM	0x24
#define SCU_HW_STRAP1	0x70
#define HPLL_HZ		384000000u	/* strap bits 9:8 = 0 with a 24 MHz CLKIN */

struct aspeed_scu {
	struct device dev;
	uint32_t clk_sel;
};

static bool scu_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct aspeed_scu *s = d->priv;

	(void)size;
	*val = off == SCU_CLK_SEL ? s->clk_sel : 0;	/* HPLL_PARAM, STRAP1: 0 */
	return off < 0x200;
}

static bool scu_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	(void)d; (void)size; (void)val;
	return off < 0x200;
}

void aspeed_scu_create(struct vemu *vm, uint32_t base, uint32_t pclk_hz)
{
	struct aspeed_scu *s = calloc(1, sizeof(*s));
	uint32_t div = HPLL_HZ / pclk_hz;		/* (SCU08[25:23] + 1) * 2 */

	if (!s || div < 2 || div > 16 || div % 2 || HPLL_HZ % pclk_hz)
		abort();
	s->clk_sel = (div / 2 - 1) << 23;
	s->dev = (struct device){ .name = "AST2400 SCU", .base = base, .size = 0x1000,
				  .read = scu_read, .write = scu_write, .priv = s };
	vemu_add_device(vm, &s->dev);
}
