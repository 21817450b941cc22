/*
 * The rest of the AT91SAM9G20 system controller: the reset controller,
 * and named windows for the blocks Lokal does not use, so that an access
 * to one stops the run naming the block and register instead of a bare
 * address.
 */
#include <stdlib.h>
#include "hw/atmel/atmel.h"

#define RSTC_KEY	0xa5000000u
#define RSTC_PROCRST	1u

static bool rstc_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	(void)d; (void)off; (void)size; (void)val;
	return false;
}

/* Only a keyed processor reset is modelled: it ends the run, status 0. */
static bool rstc_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	if (size != 4 || off != 0x00)
		return false;
	if ((val & 0xff000000u) != RSTC_KEY) {
		vemu_fail(d->vm, "RSTC: CR written with key 0x%02x, not 0xa5: the chip ignores the write",
			  val >> 24);
		return true;
	}
	if (val & RSTC_PROCRST) {
		fflush(stdout);
		fprintf(d->vm->out, "vivt-emu: RSTC: processor reset requested (CR 0x%08x): run ends\n", val);
		vemu_exit(d->vm, 0);
	}
	return true;
}

void atmel_rstc_create(struct vemu *vm, uint32_t base)
{
	struct device *d = calloc(1, sizeof(*d));

	if (!d)
		abort();
	*d = (struct device){ .name = "RSTC", .base = base, .size = 0x10,
			      .read = rstc_read, .write = rstc_write };
	vemu_add_device(vm, d);
}

static bool none_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	(void)d; (void)off; (void)size; (void)val;
	return false;
}

static bool none_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	(void)d; (void)off; (void)size; (void)val;
	return false;
}

void atmel_unmodelled_create(struct vemu *vm, uint32_t base, uint32_t size, const char *name)
{
	struct device *d = calloc(1, sizeof(*d));

	if (!d)
		abort();
	*d = (struct device){ .name = name, .base = base, .size = size,
			      .read = none_read, .write = none_write };
	vemu_add_device(vm, d);
}
