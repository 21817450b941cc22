/*
 * Atmel PIT (AT91SAM9G20 datasheet, "Periodic Interval Timer"): the 20-bit
 * CPIV counts MCK/16; when it reaches PIV it restarts from 0, PICNT (12
 * bits) counts the period and PITS rises, so a period is PIV + 1 clocks.
 * Reading PIVR returns both and clears PICNT and PITS; PIIR returns them
 * without side effects.  The interrupt (PITS with PITIEN) drives one input
 * of the system interrupt.  Each period's interrupt may land up to
 * --jitter ns late while the count stays on schedule, as the SP804's does.
 *
 * Choices: clearing PITEN lets the period in progress end (the datasheet:
 * the counter stops when it next reaches PIV); a new PIV written while
 * counting takes effect from the current CPIV on.
 */
#include <stdlib.h>
#include "hw/atmel/atmel.h"

#define MR_PIV		0x000fffffu
#define MR_PITEN	(1u << 24)
#define MR_PITIEN	(1u << 25)

struct atmel_pit {
	struct device dev;
	struct irq_line irq;
	uint32_t mr, picnt;
	bool pits, running;
	uint64_t start;		/* when CPIV was 0 in the current period */
	uint64_t due;		/* nominal end of the current period */
	struct event ev;
};

static uint64_t clocks_to_ns(uint64_t clocks)
{
	return (clocks * 16 * 1000000000ull + AT91_MCK_HZ - 1) / AT91_MCK_HZ;
}

static uint32_t cpiv(const struct atmel_pit *p, uint64_t now)
{
	if (!p->running)
		return 0;
	return (uint32_t)((now - p->start) * AT91_MCK_HZ / (16 * 1000000000ull)) & MR_PIV;
}

static void update_irq(struct atmel_pit *p)
{
	irq_set(&p->irq, p->pits && (p->mr & MR_PITIEN));
}

/* Arm the end of a period that began at `start` with CPIV at `from`. */
static void arm_period(struct atmel_pit *p, uint64_t start, uint32_t from)
{
	struct vemu *vm = p->dev.vm;
	uint32_t piv = p->mr & MR_PIV;
	uint64_t left = from <= piv ? piv + 1 - from : (MR_PIV + 1u - from) + piv + 1;
	uint64_t jitter = vm->opt.jitter_ns ? vemu_random(vm) % (vm->opt.jitter_ns + 1) : 0;

	p->running = true;
	p->start = start - clocks_to_ns(from);
	p->due = start + clocks_to_ns(left);
	vemu_event_arm(vm, &p->ev, p->due + jitter);
}

static void period_end(struct event *e)
{
	struct atmel_pit *p = e->priv;

	p->picnt = (p->picnt + 1) & 0xfff;
	p->pits = true;
	if (p->mr & MR_PITEN)
		arm_period(p, p->due, 0);
	else
		p->running = false;
	update_irq(p);
}

static bool pit_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct atmel_pit *p = d->priv;

	if (size != 4)
		return false;
	switch (off) {
	case 0x00: *val = p->mr; return true;
	case 0x04: *val = p->pits; return true;
	case 0x08:
	case 0x0c:
		*val = p->picnt << 20 | cpiv(p, d->vm->now);
		if (off == 0x08) {
			p->picnt = 0;
			p->pits = false;
			update_irq(p);
		}
		return true;
	}
	return false;
}

static bool pit_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct atmel_pit *p = d->priv;

	if (size != 4 || off != 0x00)
		return false;
	if (val & ~(MR_PIV | MR_PITEN | MR_PITIEN)) {
		vemu_fail(d->vm, "PIT: MR written with 0x%08x: bits 0x%08x are reserved (PIV is bits 19:0)",
			  val, val & ~(MR_PIV | MR_PITEN | MR_PITIEN));
		return true;
	}
	if ((val & MR_PITEN) && (val & MR_PIV) == 0) {
		vemu_fail(d->vm, "PIT: enabled with PIV 0");
		return true;
	}
	if (p->running && (val & MR_PITEN) && (val & MR_PIV) != (p->mr & MR_PIV)) {
		uint32_t c = cpiv(p, d->vm->now);

		p->mr = val;
		vemu_event_cancel(d->vm, &p->ev);
		arm_period(p, d->vm->now, c);
	} else {
		p->mr = val;
		if (!p->running && (val & MR_PITEN))
			arm_period(p, d->vm->now, 0);
	}
	update_irq(p);
	return true;
}

void atmel_pit_create(struct vemu *vm, uint32_t base, struct irq_line irq)
{
	struct atmel_pit *p = DEVICE_NEW(vm, struct atmel_pit, .name = "PIT", .base = base,
					 .size = 0x10, .read = pit_read, .write = pit_write);
	p->irq = irq;
	p->mr = MR_PIV;		/* reset value: PIV all ones, disabled */
	p->ev.fire = period_end;
	p->ev.priv = p;
	vemu_event_add(vm, &p->ev);
}
