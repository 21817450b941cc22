/*
 * ASPEED AST2400 watchdog 1: enabled with its system-reset bit it resets
 * the chip when it runs out; the model ends the run there (status 0), as
 * the AT91's reset controller does. Reload, restart and control are kept.
 */
#include <stdlib.h>
#include "hw/aspeed/aspeed.h"

#define WDT_RELOAD	0x04
#define WDT_RESTART	0x08
#define WDT_CTRL	0x0c
#define CTRL_ENABLE	(1u << 0)
#define CTRL_RESET_SYS	(1u << 1)
#define CTRL_1MHZ	(1u << 4)
#define RESTART_MAGIC	0x4755u

struct aspeed_wdt {
	struct device dev;
	uint32_t reload, ctrl;
	struct event ev;
};

static void fire(struct event *e)
{
	struct aspeed_wdt *w = e->priv;

	fprintf(w->dev.vm->out, "vivt-emu: AST2400 watchdog: system reset (control 0x%08x): run ends\n", w->ctrl);
	vemu_exit(w->dev.vm, 0);
}

static void arm(struct aspeed_wdt *w)
{
	/* 1 MHz, or PCLK (taken as 24 MHz): counts from reload to zero. */
	uint64_t hz = w->ctrl & CTRL_1MHZ ? 1000000u : 24000000u;

	vemu_event_cancel(w->dev.vm, &w->ev);
	if ((w->ctrl & (CTRL_ENABLE | CTRL_RESET_SYS)) == (CTRL_ENABLE | CTRL_RESET_SYS))
		vemu_event_arm(w->dev.vm, &w->ev, w->dev.vm->now + (w->reload * 1000000000ull + hz - 1) / hz);
}

static bool wdt_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct aspeed_wdt *w = d->priv;

	(void)size;
	switch (off) {
	case WDT_RELOAD: *val = w->reload; return true;
	case WDT_CTRL: *val = w->ctrl; return true;
	case 0x00: case WDT_RESTART: *val = 0; return true;
	}
	return false;
}

static bool wdt_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct aspeed_wdt *w = d->priv;

	(void)size;
	switch (off) {
	case WDT_RELOAD: w->reload = val; return true;
	case WDT_RESTART:
		if (val == RESTART_MAGIC)
			arm(w);
		return true;
	case WDT_CTRL: w->ctrl = val; arm(w); return true;
	}
	return false;
}

void aspeed_wdt_create(struct vemu *vm, uint32_t base)
{
	struct aspeed_wdt *w = DEVICE_NEW(vm, struct aspeed_wdt, .name = "AST2400 watchdog",
					  .base = base, .size = 0x20, .read = wdt_read,
					  .write = wdt_write);
	w->ev.fire = fire;
	w->ev.priv = w;
	vemu_event_add(vm, &w->ev);
}
