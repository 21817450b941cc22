/* ASPEED AST2400 watchdog (datasheet "WDT"; Linux: aspeed_wdt.c). */
#include <drivers/aspeed_wdt.h>
#include <drivers/mmio.h>

#define WDT_RELOAD              0x04
#define WDT_RESTART             0x08
#define WDT_CTRL                0x0c
#define WDT_RESTART_MAGIC       0x4755u
#define WDT_CTRL_ENABLE         (1u << 0)
#define WDT_CTRL_RESET_SYSTEM   (1u << 1)
#define WDT_CTRL_1MHZ_CLK       (1u << 4)

void aspeed_wdt_reset_in(uintptr_t base, uint32_t us)
{
	mmio_write32(base + WDT_CTRL, 0);
	mmio_write32(base + WDT_RELOAD, us);
	mmio_write32(base + WDT_RESTART, WDT_RESTART_MAGIC);
	mmio_write32(base + WDT_CTRL, WDT_CTRL_1MHZ_CLK | WDT_CTRL_RESET_SYSTEM);
	mmio_write32(base + WDT_CTRL, WDT_CTRL_1MHZ_CLK | WDT_CTRL_RESET_SYSTEM | WDT_CTRL_ENABLE);
}
