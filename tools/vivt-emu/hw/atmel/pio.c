/*
 * Atmel PIO controller (AT91SAM9G20 datasheet, "Parallel Input/Output
 * Controller"): who drives each pin (PIO or peripheral A/B), output enable,
 * the output data latch with its set/clear registers, multi-drive, pull-ups
 * and the interrupt disable.  A pin's level is the latch while the PIO
 * drives it as an output; the two pins a machine names (PA6 and PA7, the
 * switch and wake markers) go to the VCD on every change of that level,
 * against emulated time, like the PL061's on versatilepb.
 *
 * Not modelled (stops the run): input change interrupts (IER), glitch
 * filters, synchronous output (OWER).  Inputs read as the latch while
 * driven and as 1 (pulled up) otherwise: nothing outside drives a pin.
 */
#include <stdlib.h>
#include "hw/atmel/atmel.h"

struct atmel_pio {
	struct device dev;
	struct vcd *vcd;
	int vcd_pins[2];
	uint32_t psr, osr, odsr, mdsr, pusr, absr, imr;
};

static uint32_t driven(const struct atmel_pio *p)
{
	return p->psr & p->osr;
}

static void record(struct atmel_pio *p, uint32_t old_drv, uint32_t old_odsr)
{
	for (int w = 0; p->vcd && w < 2; w++) {
		int pin = p->vcd_pins[w];
		int was = (old_drv >> pin & 1) ? (int)(old_odsr >> pin & 1) : 0;
		int now = (driven(p) >> pin & 1) ? (int)(p->odsr >> pin & 1) : 0;

		if (pin >= 0 && was != now)
			vcd_change(p->vcd, (unsigned)w, now, p->dev.vm->now);
	}
}

static bool pio_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct atmel_pio *p = d->priv;

	if (size != 4)
		return false;
	switch (off) {
	case 0x08: *val = p->psr; return true;
	case 0x18: *val = p->osr; return true;
	case 0x38: *val = p->odsr; return true;
	case 0x3c: *val = (p->odsr & driven(p)) | ~driven(p); return true;
	case 0x48: *val = p->imr; return true;
	case 0x58: *val = p->mdsr; return true;
	case 0x68: *val = p->pusr; return true;
	case 0x78: *val = p->absr; return true;
	}
	return false;
}

static bool pio_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct atmel_pio *p = d->priv;
	uint32_t old_drv = driven(p), old_odsr = p->odsr;

	if (size != 4)
		return false;
	switch (off) {
	case 0x00: p->psr |= val; break;
	case 0x04: p->psr &= ~val; break;
	case 0x10: p->osr |= val; break;
	case 0x14: p->osr &= ~val; break;
	case 0x30: p->odsr |= val; break;
	case 0x34: p->odsr &= ~val; break;
	case 0x44: p->imr &= ~val; break;
	case 0x50: p->mdsr |= val; break;
	case 0x54: p->mdsr &= ~val; break;
	case 0x60: p->pusr |= val; break;	/* PUSR bit set: pull-up disabled */
	case 0x64: p->pusr &= ~val; break;
	case 0x70: p->absr &= ~val; break;
	case 0x74: p->absr |= val; break;
	default:
		return false;
	}
	record(p, old_drv, old_odsr);
	return true;
}

static void pio_finish(struct device *d)
{
	struct atmel_pio *p = d->priv;

	if (p->vcd)
		vcd_close(p->vcd);
	p->vcd = NULL;
}

void atmel_pio_create(struct vemu *vm, uint32_t base, const char *name, struct vcd *vcd,
		      const int vcd_pins[2])
{
	struct atmel_pio *p = DEVICE_NEW(vm, struct atmel_pio, .name = name, .base = base,
					 .size = 0x200, .read = pio_read, .write = pio_write,
					 .finish = pio_finish);
	p->vcd = vcd;
	p->vcd_pins[0] = vcd_pins ? vcd_pins[0] : -1;
	p->vcd_pins[1] = vcd_pins ? vcd_pins[1] : -1;
	p->psr = 0xffffffffu;	/* reset: every pin a PIO input, pull-ups on */
}
