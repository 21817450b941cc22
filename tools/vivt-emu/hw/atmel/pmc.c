/*
 * Atmel PMC (AT91SAM9G20 datasheet, "Power Management Controller"), as
 * far as the board code uses it: the peripheral clock gates (PCER, PCDR,
 * PCSR).  The clock generator itself (main oscillator, PLLs, MCKR) is
 * what AT91Bootstrap set up before Lokal runs; the model takes MCK as
 * AT91_MCK_HZ and stops the run if the firmware touches those registers.
 */
#include <stdlib.h>
#include "hw/atmel/atmel.h"

struct atmel_pmc {
	struct device dev;
	uint32_t pcsr;
};

bool atmel_pmc_periph_on(const struct atmel_pmc *pmc, unsigned id)
{
	return pmc->pcsr >> id & 1;
}

static bool pmc_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct atmel_pmc *p = d->priv;

	if (size != 4 || off != 0x18)
		return false;
	*val = p->pcsr;
	return true;
}

static bool pmc_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct atmel_pmc *p = d->priv;

	if (size != 4)
		return false;
	/* Ids 0 and 1 (FIQ, SYSC) have no gate: their bits read 0 and ignore writes. */
	if (off == 0x10)
		p->pcsr |= val & ~3u;
	else if (off == 0x14)
		p->pcsr &= ~val;
	else
		return false;
	return true;
}

struct atmel_pmc *atmel_pmc_create(struct vemu *vm, uint32_t base)
{
	struct atmel_pmc *p = DEVICE_NEW(vm, struct atmel_pmc, .name = "PMC", .base = base,
					 .size = 0x100, .read = pmc_read, .write = pmc_write);
	return p;
}
