/*
 * ARM SP804 dual timer (DDI0271): both timers, periodic, one-shot and
 * free-running, 16 or 32 bit, prescale 1/16/256, counting on emulated
 * time.  Each expiry's interrupt may land up to --jitter ns late (seeded),
 * while the count itself stays on schedule: that moves IRQs around inside
 * the firmware's loops from one seed to the next.
 */
#include <stdlib.h>
#include "hw/devices.h"

#define CTRL_ONESHOT	(1u << 0)
#define CTRL_32BIT	(1u << 1)
#define CTRL_IE		(1u << 5)
#define CTRL_PERIODIC	(1u << 6)
#define CTRL_ENABLE	(1u << 7)

struct sp804;

struct sp804_timer {
	struct sp804 *owner;
	uint32_t load, ctrl, ris;
	bool running;		/* counting (enabled and not a finished one-shot) */
	uint64_t t0;		/* when the count was v0 */
	uint32_t v0;
	uint64_t due;		/* nominal time of the next expiry */
	struct event ev;
};

struct sp804 {
	struct device dev;
	struct irq_line irq;
	uint32_t clk_hz;
	struct sp804_timer t[2];
};

static uint64_t prescale(const struct sp804_timer *t)
{
	switch (t->ctrl >> 2 & 3) {
	case 1: return 16;
	case 2: return 256;
	default: return 1;
	}
}

static uint32_t width_mask(const struct sp804_timer *t)
{
	return (t->ctrl & CTRL_32BIT) ? 0xffffffffu : 0xffffu;
}

static uint64_t ticks_to_ns(const struct sp804_timer *t, uint64_t ticks)
{
	uint64_t div = t->owner->clk_hz;

	return (ticks * prescale(t) * 1000000000ull + div - 1) / div;
}

static uint32_t current_value(const struct sp804_timer *t, uint64_t now)
{
	uint64_t ticks;

	if (!t->running)
		return t->v0;
	ticks = (now - t->t0) * t->owner->clk_hz / (1000000000ull * prescale(t));
	return ticks >= t->v0 ? 0 : t->v0 - (uint32_t)ticks;
}

static void update_irq(struct sp804 *s)
{
	bool level = false;

	for (int i = 0; i < 2; i++)
		if (s->t[i].ris && (s->t[i].ctrl & CTRL_IE))
			level = true;
	irq_set(&s->irq, level);
}

/* Count from v at `from`; the expiry comes v ticks later. */
static void start_count(struct sp804_timer *t, uint32_t v, uint64_t from)
{
	struct vemu *vm = t->owner->dev.vm;
	uint64_t jitter = vm->opt.jitter_ns ? vemu_random(vm) % (vm->opt.jitter_ns + 1) : 0;

	t->running = true;
	t->t0 = from;
	t->v0 = v;
	t->due = from + ticks_to_ns(t, v ? v : 1);
	vemu_event_arm(vm, &t->ev, t->due + jitter);
}

static void expire(struct event *e)
{
	struct sp804_timer *t = e->priv;

	t->ris = 1;
	if (t->ctrl & CTRL_ONESHOT) {
		t->running = false;
		t->v0 = 0;
	} else if (t->ctrl & CTRL_PERIODIC) {
		start_count(t, t->load & width_mask(t), t->due);
	} else {
		start_count(t, width_mask(t), t->due);
	}
	update_irq(t->owner);
}

static void set_ctrl(struct sp804_timer *t, uint32_t val)
{
	struct vemu *vm = t->owner->dev.vm;
	uint32_t v = current_value(t, vm->now);

	if (t->running)
		vemu_event_cancel(vm, &t->ev);
	t->running = false;
	t->v0 = v;
	t->ctrl = val & 0xef;
	if ((val & CTRL_ENABLE) && !(t->ctrl & CTRL_ONESHOT && v == 0 && !t->load))
		start_count(t, v, vm->now);
}

static bool timer_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct sp804 *s = d->priv;
	struct sp804_timer *t;

	(void)size;
	if (off >= 0xfe0) {
		static const uint8_t id[8] = { 0x04, 0x18, 0x14, 0x00, 0x0d, 0xf0, 0x05, 0xb1 };

		*val = id[(off - 0xfe0) / 4];
		return true;
	}
	if (off >= 0x40)
		return false;
	t = &s->t[off / 0x20];
	switch (off & 0x1f) {
	case 0x00: case 0x18: *val = t->load; return true;
	case 0x04: *val = current_value(t, d->vm->now); return true;
	case 0x08: *val = t->ctrl; return true;
	case 0x10: *val = t->ris; return true;
	case 0x14: *val = t->ris && (t->ctrl & CTRL_IE); return true;
	}
	return false;
}

static bool timer_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct sp804 *s = d->priv;
	struct sp804_timer *t;

	(void)size;
	if (off >= 0x40)
		return false;
	t = &s->t[off / 0x20];
	switch (off & 0x1f) {
	case 0x00:	/* LOAD: the count restarts from it */
		t->load = val;
		if (t->running)
			vemu_event_cancel(d->vm, &t->ev);
		t->running = false;
		t->v0 = val & width_mask(t);
		if (t->ctrl & CTRL_ENABLE)
			start_count(t, t->v0, d->vm->now);
		break;
	case 0x18:	/* BGLOAD: used at the next reload */
		t->load = val;
		break;
	case 0x08:
		set_ctrl(t, val);
		break;
	case 0x0c:
		t->ris = 0;
		break;
	default:
		return false;
	}
	update_irq(s);
	return true;
}

void sp804_create(struct vemu *vm, uint32_t base, uint32_t clk_hz, struct irq_line irq)
{
	struct sp804 *s = DEVICE_NEW(vm, struct sp804, .name = "SP804 timer", .base = base,
				     .size = 0x1000, .read = timer_read, .write = timer_write);
	s->irq = irq;
	s->clk_hz = clk_hz;
	for (int i = 0; i < 2; i++) {
		s->t[i].owner = s;
		s->t[i].ctrl = CTRL_IE;		/* reset value per the TRM */
		s->t[i].v0 = 0xffffffffu;
		s->t[i].load = 0;
		s->t[i].ev.fire = expire;
		s->t[i].ev.priv = &s->t[i];
		vemu_event_add(vm, &s->t[i].ev);
	}
}
