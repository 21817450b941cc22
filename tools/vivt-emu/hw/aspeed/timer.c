/*
 * ASPEED AST2400 timers 1..8: each counts down from its count register at
 * 1 MHz or at PCLK (control register 0x30, four bits per timer: enable,
 * external 1 MHz clock, interrupt, pulse) and, on reaching zero, reloads
 * and pulses its interrupt line if the interrupt bit is set. The match
 * registers are kept, not compared (Lokal sets them to 0). As in sp804.c,
 * an expiry's interrupt may land up to --jitter ns late while the count
 * stays on schedule.
 */
#include <stdlib.h>
#include "hw/aspeed/aspeed.h"

#define CTRL		0x30
#define C_ENABLE	1u
#define C_EXT_CLK	2u
#define C_IRQ		4u

struct aspeed_timers;

struct aspeed_timer {
	struct aspeed_timers *owner;
	unsigned n;			/* 1..8 */
	uint32_t reload, match[2];
	bool running;
	uint64_t t0;			/* when the count was v0 */
	uint32_t v0;
	uint64_t due;			/* nominal time the count reaches zero */
	struct irq_line irq;
	struct event ev;
};

struct aspeed_timers {
	struct device dev;
	uint32_t pclk_hz, ctrl;
	struct aspeed_timer t[8];
};

static unsigned bits(const struct aspeed_timer *t)
{
	return t->owner->ctrl >> 4 * (t->n - 1) & 0xf;
}

static uint64_t clk_hz(const struct aspeed_timer *t)
{
	return bits(t) & C_EXT_CLK ? 1000000u : t->owner->pclk_hz;
}

static uint32_t current_value(const struct aspeed_timer *t, uint64_t now)
{
	uint64_t ticks;

	if (!t->running)
		return t->v0;
	ticks = (now - t->t0) * clk_hz(t) / 1000000000ull;
	return ticks >= t->v0 ? 0 : t->v0 - (uint32_t)ticks;
}

static void start_count(struct aspeed_timer *t, uint32_t v, uint64_t from)
{
	struct vemu *vm = t->owner->dev.vm;
	uint64_t jitter = vm->opt.jitter_ns ? vemu_random(vm) % (vm->opt.jitter_ns + 1) : 0;
	uint64_t hz = clk_hz(t);

	t->running = true;
	t->t0 = from;
	t->v0 = v;
	t->due = from + ((uint64_t)(v ? v : 1) * 1000000000ull + hz - 1) / hz;
	vemu_event_arm(vm, &t->ev, t->due + jitter);
}

static void expire(struct event *e)
{
	struct aspeed_timer *t = e->priv;

	start_count(t, t->reload, t->due);
	if (bits(t) & C_IRQ) {		/* a pulse: the VIC latches the edge */
		irq_set(&t->irq, true);
		irq_set(&t->irq, false);
	}
}

/* Stop or start each timer whose control bits changed, from its count now. */
static void set_ctrl(struct aspeed_timers *s, uint32_t val)
{
	struct vemu *vm = s->dev.vm;

	for (unsigned i = 0; i < 8; i++) {
		struct aspeed_timer *t = &s->t[i];
		uint32_t v = current_value(t, vm->now);

		if (t->running)
			vemu_event_cancel(vm, &t->ev);
		t->running = false;
		t->v0 = v;
	}
	s->ctrl = val;
	for (unsigned i = 0; i < 8; i++)
		if (bits(&s->t[i]) & C_ENABLE)
			start_count(&s->t[i], s->t[i].v0, vm->now);
}

/* Timer n's registers: 1..3 at 0x00, 0x10, 0x20; 4..8 from 0x40. */
static struct aspeed_timer *timer_at(struct aspeed_timers *s, uint32_t off)
{
	if (off < 0x30)
		return &s->t[off / 0x10];
	if (off >= 0x40 && off < 0x90)
		return &s->t[3 + (off - 0x40) / 0x10];
	return NULL;
}

static bool timer_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct aspeed_timers *s = d->priv;
	struct aspeed_timer *t = timer_at(s, off);

	(void)size;
	if (off == CTRL) {
		*val = s->ctrl;
		return true;
	}
	if (!t)
		return false;
	switch (off & 0xf) {
	case 0x0: *val = current_value(t, d->vm->now); return true;
	case 0x4: *val = t->reload; return true;
	case 0x8: *val = t->match[0]; return true;
	case 0xc: *val = t->match[1]; return true;
	}
	return false;
}

static bool timer_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct aspeed_timers *s = d->priv;
	struct aspeed_timer *t = timer_at(s, off);

	(void)size;
	if (off == CTRL) {
		set_ctrl(s, val);
		return true;
	}
	if (!t)
		return false;
	switch (off & 0xf) {
	case 0x0:	/* the count: counting goes on from it */
		if (t->running) {
			vemu_event_cancel(d->vm, &t->ev);
			start_count(t, val, d->vm->now);
		} else {
			t->v0 = val;
		}
		return true;
	case 0x4: t->reload = val; return true;
	case 0x8: t->match[0] = val; return true;
	case 0xc: t->match[1] = val; return true;
	}
	return false;
}

void aspeed_timer_create(struct vemu *vm, uint32_t base, uint32_t pclk_hz, const struct irq_line irq[8])
{
	struct aspeed_timers *s = DEVICE_NEW(vm, struct aspeed_timers, .name = "AST2400 timers",
					     .base = base, .size = 0x1000, .read = timer_read,
					     .write = timer_write);
	s->pclk_hz = pclk_hz;
	for (unsigned i = 0; i < 8; i++) {
		s->t[i].owner = s;
		s->t[i].n = i + 1;
		s->t[i].irq = irq[i];
		s->t[i].ev.fire = expire;
		s->t[i].ev.priv = &s->t[i];
		vemu_event_add(vm, &s->t[i].ev);
	}
}
