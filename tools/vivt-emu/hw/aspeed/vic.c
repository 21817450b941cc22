/*
 * ASPEED AST2400 VIC, the "new" register set at +0x80 (each register a
 * pair: +0 lines 0..31, +4 lines 32..63). A line's sense is fixed at reset
 * as on the AST2400 (the timers' lines 16..18 latch rising edges; the
 * rest follow their level). Unlike QEMU's model, software interrupts work
 * as on the silicon, so the firmware takes that path here (under QEMU it
 * raises its soft line through the XDMA engine instead). FIQ is not wired.
 */
#include <stdlib.h>
#include "hw/aspeed/aspeed.h"

#define SENSE_RESET	0x1f07fff8ffffull	/* 1: level */

struct aspeed_vic {
	struct device dev;
	uint64_t level, raw, select, enable, soft, sense;
};

static void update(struct aspeed_vic *v)
{
	uint64_t pend = (v->raw | v->soft) & v->enable & ~v->select;

	v->dev.vm->irq_source = pend ? __builtin_ctzll(pend) : -1;
	vemu_set_irq(v->dev.vm, pend != 0);
}

static void set_line(void *ctl, unsigned line, bool level)
{
	struct aspeed_vic *v = ctl;
	uint64_t bit = 1ull << line;

	if (v->sense & bit)
		v->raw = level ? v->raw | bit : v->raw & ~bit;
	else if (level && !(v->level & bit))
		v->raw |= bit;			/* rising edge: latched until cleared */
	v->level = level ? v->level | bit : v->level & ~bit;
	update(v);
}

struct irq_line aspeed_vic_input(struct aspeed_vic *vic, unsigned line)
{
	return (struct irq_line){ set_line, vic, line };
}

void aspeed_vic_soft_raise(struct aspeed_vic *vic, unsigned line)
{
	vic->soft |= 1ull << line;
	update(vic);
}

static bool vic_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct aspeed_vic *v = d->priv;
	unsigned shift = off & 4 ? 32 : 0;
	uint64_t r;

	(void)size;
	switch (off & ~4u) {
	case 0x80: r = (v->raw | v->soft) & v->enable & ~v->select; break;
	case 0x88: r = (v->raw | v->soft) & v->enable & v->select; break;
	case 0x90: r = v->raw | v->soft; break;
	case 0x98: r = v->select; break;
	case 0xa0: r = v->enable; break;
	case 0xb0: r = v->soft; break;
	case 0xc0: r = v->sense; break;
	case 0xe0: r = v->raw & ~v->sense; break;
	default: return false;
	}
	*val = (uint32_t)(r >> shift);
	return true;
}

static bool vic_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct aspeed_vic *v = d->priv;
	unsigned shift = off & 4 ? 32 : 0;
	uint64_t bits = (uint64_t)val << shift, half = 0xffffffffull << shift;

	(void)size;
	switch (off & ~4u) {
	case 0x98: v->select = (v->select & ~half) | bits; break;
	case 0xa0: v->enable |= bits; break;
	case 0xa8: v->enable &= ~bits; break;
	case 0xb0: v->soft |= bits; break;
	case 0xb8: v->soft &= ~bits; break;
	case 0xd8: v->raw &= ~(bits & ~v->sense); break;
	default: return false;
	}
	update(v);
	return true;
}

struct aspeed_vic *aspeed_vic_create(struct vemu *vm, uint32_t base)
{
	struct aspeed_vic *v = calloc(1, sizeof(*v));

	if (!v)
		abort();
	v->sense = SENSE_RESET;
	v->dev = (struct device){ .name = "AST2400 VIC", .base = base, .size = 0x1000,
				  .read = vic_read, .write = vic_write, .priv = v };
	vemu_add_device(vm, &v->dev);
	return v;
}
