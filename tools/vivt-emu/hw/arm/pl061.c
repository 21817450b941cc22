/*
 * ARM PL061 GPIO (DDI0190): address-masked data, direction, and the
 * interrupt registers.  Every edge on an output pin is recorded against
 * emulated time for the VCD (pins 0 and 1 are Lokal's switch and wake
 * markers).
 */
#include <stdlib.h>
#include "hw/devices.h"

struct pl061 {
	struct device dev;
	struct irq_line irq;
	struct vcd *vcd;
	uint32_t data, dir, is, ibe, iev, ie, ris, afsel;
};

static void update_irq(struct pl061 *g)
{
	irq_set(&g->irq, (g->ris & g->ie) != 0);
}

static bool gpio_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct pl061 *g = d->priv;

	(void)size;
	if (off < 0x400) {
		*val = g->data & (off >> 2);
		return true;
	}
	switch (off) {
	case 0x400: *val = g->dir; return true;
	case 0x404: *val = g->is; return true;
	case 0x408: *val = g->ibe; return true;
	case 0x40c: *val = g->iev; return true;
	case 0x410: *val = g->ie; return true;
	case 0x414: *val = g->ris; return true;
	case 0x418: *val = g->ris & g->ie; return true;
	case 0x420: *val = g->afsel; return true;
	}
	if (off >= 0xfe0 && off < 0x1000) {
		static const uint8_t id[8] = { 0x61, 0x10, 0x04, 0x00, 0x0d, 0xf0, 0x05, 0xb1 };

		*val = id[(off - 0xfe0) / 4];
		return true;
	}
	return false;
}

static bool gpio_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct pl061 *g = d->priv;

	(void)size;
	if (off < 0x400) {
		uint32_t mask = (off >> 2) & g->dir & 0xff;
		uint32_t old = g->data, now = (old & ~mask) | (val & mask);

		g->data = now;
		for (unsigned pin = 0; g->vcd && pin < 8; pin++)
			if ((old ^ now) >> pin & 1)
				vcd_change(g->vcd, pin, now >> pin & 1, d->vm->now);
		return true;
	}
	switch (off) {
	case 0x400: g->dir = val & 0xff; return true;
	case 0x404: g->is = val & 0xff; return true;
	case 0x408: g->ibe = val & 0xff; return true;
	case 0x40c: g->iev = val & 0xff; return true;
	case 0x410: g->ie = val & 0xff; break;
	case 0x41c: g->ris &= ~val; break;
	case 0x420: g->afsel = val & 0xff; return true;
	default: return false;
	}
	update_irq(g);
	return true;
}

static void gpio_finish(struct device *d)
{
	struct pl061 *g = d->priv;

	if (g->vcd)
		vcd_close(g->vcd);
	g->vcd = NULL;
}

void pl061_create(struct vemu *vm, uint32_t base, struct irq_line irq, struct vcd *vcd)
{
	struct pl061 *g = DEVICE_NEW(vm, struct pl061, .name = "PL061 GPIO", .base = base,
				     .size = 0x1000, .read = gpio_read, .write = gpio_write,
				     .finish = gpio_finish);
	g->irq = irq;
	g->vcd = vcd;
}
