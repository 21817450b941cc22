/*
 * ARM PL190 vectored interrupt controller (DDI0181) and the Versatile
 * secondary interrupt controller behind VIC line 31.  Only the IRQ path is
 * modelled (FIQ select is kept but never asserted: Lokal uses no FIQ).
 */
#include <stdlib.h>
#include "hw/devices.h"

struct pl190 {
	struct device dev;
	uint32_t raw, soft, enable, select, protection, vectaddr, defvectaddr;
	uint32_t vectaddrs[16], vectcntl[16];
};

static void vic_update(struct pl190 *v)
{
	uint32_t pend = (v->raw | v->soft) & v->enable & ~v->select;

	v->dev.vm->irq_source = pend ? __builtin_ctz(pend) : -1;
	vemu_set_irq(v->dev.vm, pend != 0);
}

static void vic_set(void *ctl, unsigned line, bool level)
{
	struct pl190 *v = ctl;

	if (level)
		v->raw |= 1u << line;
	else
		v->raw &= ~(1u << line);
	vic_update(v);
}

struct irq_line pl190_input(struct pl190 *vic, unsigned line)
{
	return (struct irq_line){ vic_set, vic, line };
}

void pl190_soft_raise(struct pl190 *vic, unsigned line)
{
	vic->soft |= 1u << line;
	vic_update(vic);
}

static const uint8_t pl190_id[8] = { 0x90, 0x11, 0x04, 0x00, 0x0d, 0xf0, 0x05, 0xb1 };

static bool vic_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct pl190 *v = d->priv;
	uint32_t act = v->raw | v->soft;

	(void)size;
	switch (off) {
	case 0x000: *val = act & v->enable & ~v->select; return true;
	case 0x004: *val = act & v->enable & v->select; return true;
	case 0x008: *val = act; return true;
	case 0x00c: *val = v->select; return true;
	case 0x010: *val = v->enable; return true;
	case 0x018: *val = v->soft; return true;
	case 0x020: *val = v->protection; return true;
	case 0x030: *val = v->vectaddr; return true;
	case 0x034: *val = v->defvectaddr; return true;
	}
	if (off >= 0x100 && off < 0x140) { *val = v->vectaddrs[(off - 0x100) / 4]; return true; }
	if (off >= 0x200 && off < 0x240) { *val = v->vectcntl[(off - 0x200) / 4]; return true; }
	if (off >= 0xfe0) { *val = pl190_id[(off - 0xfe0) / 4]; return true; }
	return false;
}

static bool vic_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct pl190 *v = d->priv;

	(void)size;
	switch (off) {
	case 0x00c: v->select = val; break;
	case 0x010: v->enable |= val; break;
	case 0x014: v->enable &= ~val; break;
	case 0x018: v->soft |= val; break;
	case 0x01c: v->soft &= ~val; break;
	case 0x020: v->protection = val & 1; break;
	case 0x030: v->vectaddr = val; break;
	case 0x034: v->defvectaddr = val; break;
	default:
		if (off >= 0x100 && off < 0x140) { v->vectaddrs[(off - 0x100) / 4] = val; break; }
		if (off >= 0x200 && off < 0x240) { v->vectcntl[(off - 0x200) / 4] = val; break; }
		return false;
	}
	vic_update(v);
	return true;
}

struct pl190 *pl190_create(struct vemu *vm, uint32_t base)
{
	struct pl190 *v = DEVICE_NEW(vm, struct pl190, .name = "PL190 VIC", .base = base,
				     .size = 0x1000, .read = vic_read, .write = vic_write);
	return v;
}

/* ---- Versatile SIC: ENABLE gates lines to VIC 31; PICENABLE is bookkeeping
 * (it routes lines straight to the VIC, which Lokal does not use). */

struct versatile_sic {
	struct device dev;
	struct irq_line out;
	uint32_t raw, enable, soft, picenable;
};

static void sic_update(struct versatile_sic *s)
{
	irq_set(&s->out, ((s->raw | s->soft) & s->enable) != 0);
}

static void sic_set(void *ctl, unsigned line, bool level)
{
	struct versatile_sic *s = ctl;

	if (level)
		s->raw |= 1u << line;
	else
		s->raw &= ~(1u << line);
	sic_update(s);
}

struct irq_line sic_input(struct versatile_sic *sic, unsigned line)
{
	return (struct irq_line){ sic_set, sic, line };
}

static bool sic_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct versatile_sic *s = d->priv;

	(void)size;
	switch (off) {
	case 0x00: *val = (s->raw | s->soft) & s->enable; return true;
	case 0x04: *val = s->raw | s->soft; return true;
	case 0x08: *val = s->enable; return true;
	case 0x10: *val = s->soft; return true;
	case 0x20: *val = s->picenable; return true;
	}
	return false;
}

static bool sic_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct versatile_sic *s = d->priv;

	(void)size;
	switch (off) {
	case 0x08: s->enable |= val; break;
	case 0x0c: s->enable &= ~val; break;
	case 0x10: s->soft |= val; break;
	case 0x14: s->soft &= ~val; break;
	case 0x20: s->picenable |= val; break;
	case 0x24: s->picenable &= ~val; break;
	default: return false;
	}
	sic_update(s);
	return true;
}

struct versatile_sic *sic_create(struct vemu *vm, uint32_t base, struct irq_line out)
{
	struct versatile_sic *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	s->out = out;
	s->dev = (struct device){ .name = "Versatile SIC", .base = base, .size = 0x1000,
				  .read = sic_read, .write = sic_write, .priv = s };
	vemu_add_device(vm, &s->dev);
	return s;
}
