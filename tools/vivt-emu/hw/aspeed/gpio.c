/*
 * ASPEED AST2400 GPIO, set ABCD: the data register (0x000, pins driven
 * where the direction register at 0x004 says output) and its read-back
 * at 0x0c0. Output edges of two pins go to the VCD (the marker pins).
 */
#include <stdlib.h>
#include "hw/aspeed/aspeed.h"

struct aspeed_gpio {
	struct device dev;
	uint32_t data, dir, out;	/* out: the levels driven */
	struct vcd *vcd;
	int vcd_pins[2];
};

static void drive(struct aspeed_gpio *g)
{
	uint32_t now = g->data & g->dir;

	for (unsigned w = 0; g->vcd && w < 2; w++) {
		int pin = g->vcd_pins[w];

		if (pin >= 0 && ((now ^ g->out) >> pin & 1))
			vcd_change(g->vcd, w, now >> pin & 1, g->dev.vm->now);
	}
	g->out = now;
}

static bool gpio_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct aspeed_gpio *g = d->priv;

	(void)size;
	switch (off) {
	case 0x000: case 0x0c0: *val = g->data; return true;
	case 0x004: *val = g->dir; return true;
	}
	return false;
}

static bool gpio_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct aspeed_gpio *g = d->priv;

	(void)size;
	switch (off) {
	case 0x000: g->data = val; break;
	case 0x004: g->dir = val; break;
	default: return false;
	}
	drive(g);
	return true;
}

static void gpio_finish(struct device *d)
{
	struct aspeed_gpio *g = d->priv;

	if (g->vcd)
		vcd_close(g->vcd);
	g->vcd = NULL;
}

void aspeed_gpio_create(struct vemu *vm, uint32_t base, struct vcd *vcd, const int vcd_pins[2])
{
	struct aspeed_gpio *g = DEVICE_NEW(vm, struct aspeed_gpio, .name = "AST2400 GPIO",
					   .base = base, .size = 0x1000, .read = gpio_read,
					   .write = gpio_write, .finish = gpio_finish);
	g->vcd = vcd;
	g->vcd_pins[0] = vcd_pins[0];
	g->vcd_pins[1] = vcd_pins[1];
}
