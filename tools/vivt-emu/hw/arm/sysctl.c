/*
 * Versatile system registers (the 24 MHz and 100 Hz counters follow
 * emulated time: 1 instruction = 1 ns, as QEMU -icount shift=0) and the
 * SP810 system controller beside them (only SCCTRL: the NOR boot stub
 * clears the remap there).
 */
#include <stdlib.h>
#include "hw/devices.h"

#define SYS_ID		0x00
#define SYS_100HZ	0x24
#define SYS_LOCK	0x20
#define SYS_FLASH	0x4c
#define SYS_24MHZ	0x5c
#define SYS_LAST	0x100

struct sysctl {
	struct device dev;
	uint32_t regs[SYS_LAST / 4];
};

static bool sysctl_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct sysctl *s = d->priv;

	(void)size;
	if (off == SYS_24MHZ) {
		*val = (uint32_t)(d->vm->now * 24 / 1000);
		return true;
	}
	if (off == SYS_100HZ) {
		*val = (uint32_t)(d->vm->now / 10000000u);
		return true;
	}
	if (off < 0x64) {	/* the documented block up to SYS_MISC */
		*val = s->regs[off / 4];
		return true;
	}
	return false;
}

static bool sysctl_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct sysctl *s = d->priv;

	(void)size;
	if (off == SYS_ID || off == SYS_24MHZ || off == SYS_100HZ || off >= 0x64)
		return false;
	s->regs[off / 4] = val;
	return true;
}

void versatile_sysctl_create(struct vemu *vm, uint32_t base)
{
	struct sysctl *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	s->regs[SYS_ID / 4] = 0x41007004u;	/* what QEMU's versatilepb reports */
	s->dev = (struct device){ .name = "Versatile sysctl", .base = base, .size = 0x1000,
				  .read = sysctl_read, .write = sysctl_write, .priv = s };
	vemu_add_device(vm, &s->dev);
}

struct sp810 {
	struct device dev;
	uint32_t scctrl;
};

static bool sp810_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct sp810 *s = d->priv;

	(void)size;
	if (off != 0)
		return false;
	*val = s->scctrl;
	return true;
}

static bool sp810_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct sp810 *s = d->priv;

	(void)size;
	if (off != 0)
		return false;
	s->scctrl = val;
	return true;
}

void sp810_create(struct vemu *vm, uint32_t base)
{
	struct sp810 *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	s->scctrl = 0;
	s->dev = (struct device){ .name = "SP810 system controller", .base = base, .size = 0x1000,
				  .read = sp810_read, .write = sp810_write, .priv = s };
	vemu_add_device(vm, &s->dev);
}
