/*
 * Atmel TC block (AT91SAM9G20 datasheet, "Timer Counter"): three 16-bit
 * channels in waveform mode counting up (WAVSEL 00), on MCK/2, /8, /32,
 * /128 or the 32768 Hz slow clock, or on XC1 = TIOA0 for channel 1 (the
 * chained 32-bit counter).  RC compare sets CPCS and, with CPCSTOP or
 * CPCDIS, stops or disables the clock (the one-shot).  Counts follow
 * emulated time exactly; a CPCS interrupt may land up to --jitter ns late.
 *
 * Choices where the datasheet leaves room, and limits (each limit stops
 * the run when the firmware steps past it, naming what it did):
 * - A compare happens when the counter arrives at the value by counting
 *   (the 0xFFFF -> 0 wrap included), not when a trigger resets it to 0.
 *   So TIOA0 with ACPA = set, ACPC = clear and RA < RC rises once per
 *   wrap after the first, and channel 1 counts exactly the wraps.
 * - CLKEN alone starts the count from the current CV; a trigger (SWTRG,
 *   BCR.SYNC) resets it to 0 and restarts a stopped clock.
 * - SR reports CPCS and CLKSTA; the other events (COVFS, CPAS, ...) are
 *   not tracked, so enabling their interrupts stops the run.  CPCS is
 *   tracked only while its interrupt is enabled or RC stops the channel
 *   (nothing in Lokal polls it otherwise).
 * - Capture mode, WAVSEL other than 00, XC0/XC2 and TIOA/TIOB as pins
 *   are not modelled.  Using a channel whose peripheral clock is off in
 *   the PMC stops the run: on the chip it would not count.
 */
#include <stdlib.h>
#include "hw/atmel/atmel.h"

#define M		65536u
#define CCR_CLKEN	(1u << 0)
#define CCR_CLKDIS	(1u << 1)
#define CCR_SWTRG	(1u << 2)
#define CMR_TCCLKS	7u
#define CMR_CPCSTOP	(1u << 6)
#define CMR_CPCDIS	(1u << 7)
#define CMR_WAVSEL(c)	((c) >> 13 & 3u)
#define CMR_WAVE	(1u << 15)
#define CMR_ACPA(c)	((c) >> 16 & 3u)
#define CMR_ACPC(c)	((c) >> 18 & 3u)
#define SR_CPCS		(1u << 4)
#define SR_CLKSTA	(1u << 16)
#define BMR_TC1XC1S(b)	((b) >> 2 & 3u)

struct atmel_tcb;

struct tc_ch {
	struct atmel_tcb *tcb;
	unsigned idx;
	struct irq_line irq;
	uint32_t cmr, ra, rb, rc, imr, status;
	bool clken, counting;
	uint64_t t0, cv0;	/* counting: position cv0 at time t0 */
	uint64_t stop_pos;	/* CPCSTOP/CPCDIS: where RC stops it */
	uint64_t frozen;	/* position while not counting */
	uint64_t edges_acc;	/* RA compares of finished runs (TIOA0 for channel 1) */
	uint64_t edges_at_start;	/* channel 1: channel 0's edges when it started */
	uint64_t pending_rc;	/* position of the RC compare the event stands for */
	struct event ev;
};

struct atmel_tcb {
	struct device dev;
	const struct atmel_pmc *pmc;
	unsigned pmc_id0;
	uint32_t bmr;
	struct tc_ch ch[3];
};

static bool xc_clocked(const struct tc_ch *c)
{
	return (c->cmr & CMR_TCCLKS) >= 5;
}

static uint64_t clk_hz(const struct tc_ch *c)
{
	static const uint32_t div[4] = { 2, 8, 32, 128 };
	unsigned s = c->cmr & CMR_TCCLKS;

	return s < 4 ? AT91_MCK_HZ / div[s] : 32768u;
}

static uint64_t run_edges(const struct tc_ch *c, uint64_t now);

static uint64_t edges_total(const struct tc_ch *c, uint64_t now)
{
	return c->edges_acc + run_edges(c, now);
}

/* Position of the count: CV is this modulo 2^16 (it never goes down). */
static uint64_t position(const struct tc_ch *c, uint64_t now)
{
	uint64_t ticks, p;

	if (!c->counting)
		return c->frozen;
	if (xc_clocked(c))
		ticks = edges_total(&c->tcb->ch[0], now) - c->edges_at_start;
	else
		ticks = (uint64_t)((unsigned __int128)(now - c->t0) * clk_hz(c) / 1000000000u);
	p = c->cv0 + ticks;
	return p < c->stop_pos ? p : c->stop_pos;
}

/* How many k in [0, x] have k mod 2^16 == r. */
static uint64_t hits_upto(uint64_t x, uint32_t r)
{
	return x >= r ? (x - r) / M + 1 : 0;
}

/* RA compares of the current run, each a TIOA rise in the one configuration modelled. */
static uint64_t run_edges(const struct tc_ch *c, uint64_t now)
{
	if (!c->counting)
		return 0;
	return hits_upto(position(c, now), c->ra % M) - hits_upto(c->cv0, c->ra % M);
}

static void update_irq(struct tc_ch *c)
{
	irq_set(&c->irq, (c->status & c->imr) != 0);
}

static uint64_t time_of(const struct tc_ch *c, uint64_t pos)
{
	uint64_t hz = clk_hz(c);

	return c->t0 + (uint64_t)(((unsigned __int128)(pos - c->cv0) * 1000000000u + hz - 1) / hz);
}

/* First position after `after` where CV equals RC. */
static uint64_t next_rc(const struct tc_ch *c, uint64_t after)
{
	uint64_t r = c->rc % M, base = after - after % M;

	return base + r > after ? base + r : base + M + r;
}

static void arm_rc(struct tc_ch *c, uint64_t after)
{
	struct vemu *vm = c->tcb->dev.vm;
	uint64_t k = next_rc(c, after);
	uint64_t jitter = vm->opt.jitter_ns ? vemu_random(vm) % (vm->opt.jitter_ns + 1) : 0;

	/* An event only where it changes something the firmware sees: a free-running
	 * channel without its interrupt would otherwise wake every WFI for nothing. */
	if (xc_clocked(c) || k > c->stop_pos || (!(c->imr & SR_CPCS) && c->stop_pos == UINT64_MAX))
		return;
	c->pending_rc = k;
	vemu_event_arm(vm, &c->ev, time_of(c, k) + jitter);
}

static void freeze(struct tc_ch *c, uint64_t now)
{
	if (!c->counting)
		return;
	c->edges_acc += run_edges(c, now);
	c->frozen = position(c, now);
	c->counting = false;
	vemu_event_cancel(c->tcb->dev.vm, &c->ev);
}

static bool clock_on(struct tc_ch *c)
{
	unsigned id = c->tcb->pmc_id0 + c->idx;

	if (atmel_pmc_periph_on(c->tcb->pmc, id))
		return true;
	vemu_fail(c->tcb->dev.vm, "TC%u: used with its peripheral clock off (PMC_PCER bit %u not set)", c->idx, id);
	return false;
}

static void start(struct tc_ch *c, uint64_t now, uint64_t from)
{
	if (!clock_on(c))
		return;
	c->counting = true;
	c->t0 = now;
	c->cv0 = from;
	c->edges_at_start = xc_clocked(c) ? edges_total(&c->tcb->ch[0], now) : 0;
	c->stop_pos = (c->cmr & (CMR_CPCSTOP | CMR_CPCDIS)) ? next_rc(c, from) : UINT64_MAX;
	arm_rc(c, from);
}

static void rc_fire(struct event *e)
{
	struct tc_ch *c = e->priv;
	uint64_t k = c->pending_rc;

	c->status |= SR_CPCS;
	if (k == c->stop_pos) {
		c->edges_acc += hits_upto(k, c->ra % M) - hits_upto(c->cv0, c->ra % M);
		c->frozen = k;
		c->counting = false;
		if (c->cmr & CMR_CPCDIS)
			c->clken = false;
	} else {
		arm_rc(c, k);
	}
	update_irq(c);
}

/* Restart a counting channel from where it is, after a mode or compare change. */
static void rebase(struct tc_ch *c, uint64_t now)
{
	if (c->counting) {
		freeze(c, now);
		start(c, now, c->frozen % M);
	}
}

static bool chain_ok(struct tc_ch *c)
{
	const struct tc_ch *c0 = &c->tcb->ch[0];
	struct vemu *vm = c->tcb->dev.vm;

	if (c->idx != 1 || (c->cmr & CMR_TCCLKS) != 6 || BMR_TC1XC1S(c->tcb->bmr) != 2) {
		vemu_fail(vm, "TC%u: clock XC%u (BMR 0x%x) is not modelled: only TC1 on XC1 = TIOA0",
			  c->idx, (c->cmr & CMR_TCCLKS) - 5, c->tcb->bmr);
		return false;
	}
	if (CMR_ACPA(c0->cmr) != 1 || CMR_ACPC(c0->cmr) != 2 || c0->ra % M >= c0->rc % M ||
	    (c0->cmr & (CMR_CPCSTOP | CMR_CPCDIS)) || xc_clocked(c0)) {
		vemu_fail(vm, "TC1 counts TIOA0, but TC0's waveform (CMR 0x%08x, RA 0x%x, RC 0x%x) is not "
			  "the one modelled: ACPA set, ACPC clear, RA < RC, free running on an internal clock",
			  c0->cmr, c0->ra, c0->rc);
		return false;
	}
	return true;
}

static bool tcb_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct atmel_tcb *t = d->priv;
	struct tc_ch *c;

	if (size != 4)
		return false;
	if (off == 0xc4) { *val = t->bmr; return true; }
	if (off >= 0xc0)
		return false;
	c = &t->ch[off / 0x40];
	switch (off % 0x40) {
	case 0x04: *val = c->cmr; return true;
	case 0x10:
		if (!clock_on(c) || (c->counting && xc_clocked(c) && !chain_ok(c)))
			return true;
		*val = (uint32_t)(position(c, d->vm->now) % M);
		return true;
	case 0x14: *val = c->ra; return true;
	case 0x18: *val = c->rb; return true;
	case 0x1c: *val = c->rc; return true;
	case 0x20:
		*val = c->status | (c->counting ? SR_CLKSTA : 0);
		c->status = 0;
		update_irq(c);
		return true;
	case 0x2c: *val = c->imr; return true;
	}
	return false;
}

static void trigger(struct tc_ch *c, uint64_t now)
{
	if (!c->clken)
		return;
	freeze(c, now);
	start(c, now, 0);
}

static bool ch_write(struct tc_ch *c, uint32_t reg, uint32_t val, uint64_t now)
{
	struct vemu *vm = c->tcb->dev.vm;

	switch (reg) {
	case 0x00:
		if (val & CCR_CLKDIS) {
			freeze(c, now);
			c->clken = false;
		} else if (val & CCR_CLKEN) {
			if (!clock_on(c))
				return true;
			c->clken = true;
			if (!c->counting && !(val & CCR_SWTRG))
				start(c, now, c->frozen % M);
		}
		if (val & CCR_SWTRG)
			trigger(c, now);
		return true;
	case 0x04:
		if (!(val & CMR_WAVE)) {
			vemu_fail(vm, "TC%u: capture mode (CMR 0x%08x) is not modelled", c->idx, val);
			return true;
		}
		if (CMR_WAVSEL(val) != 0) {
			vemu_fail(vm, "TC%u: WAVSEL %u is not modelled (only 00, up to 0xFFFF)", c->idx, CMR_WAVSEL(val));
			return true;
		}
		if ((val & CMR_TCCLKS) == 5 || (val & CMR_TCCLKS) == 7) {
			vemu_fail(vm, "TC%u: clock XC%u is not modelled", c->idx, (val & CMR_TCCLKS) - 5);
			return true;
		}
		freeze(c, now);
		c->cmr = val;
		if (c->clken && !c->counting)
			start(c, now, c->frozen % M);
		return true;
	case 0x14: c->ra = val & 0xffff; rebase(c, now); return true;
	case 0x18: c->rb = val & 0xffff; return true;
	case 0x1c: c->rc = val & 0xffff; rebase(c, now); return true;
	case 0x24:
		if (val & ~SR_CPCS & 0xff) {
			vemu_fail(vm, "TC%u: interrupt enable 0x%02x: only CPCS (RC compare) is modelled", c->idx, val);
			return true;
		}
		if ((val & SR_CPCS) && xc_clocked(c)) {
			vemu_fail(vm, "TC%u: RC compare interrupt on an XC clock is not modelled", c->idx);
			return true;
		}
		c->imr |= val & 0xff;
		if (c->counting && !c->ev.armed)
			arm_rc(c, position(c, now));
		break;
	case 0x28: c->imr &= ~val; break;
	default:
		return false;
	}
	update_irq(c);
	return true;
}

static bool tcb_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct atmel_tcb *t = d->priv;

	if (size != 4)
		return false;
	if (off < 0xc0)
		return ch_write(&t->ch[off / 0x40], off % 0x40, val, d->vm->now);
	if (off == 0xc0) {
		if (val & 1)
			for (int i = 0; i < 3; i++)
				trigger(&t->ch[i], d->vm->now);
		return true;
	}
	if (off == 0xc4) {
		for (int i = 0; i < 3; i++)
			freeze(&t->ch[i], d->vm->now);
		t->bmr = val & 0x3f;
		for (int i = 0; i < 3; i++)
			if (t->ch[i].clken)
				start(&t->ch[i], d->vm->now, t->ch[i].frozen % M);
		return true;
	}
	return false;
}

void atmel_tcb_create(struct vemu *vm, uint32_t base, const struct irq_line irq[3],
		      const struct atmel_pmc *pmc, unsigned pmc_id0)
{
	struct atmel_tcb *t = DEVICE_NEW(vm, struct atmel_tcb, .name = "TC block", .base = base,
					 .size = 0x100, .read = tcb_read, .write = tcb_write);
	t->pmc = pmc;
	t->pmc_id0 = pmc_id0;
	for (unsigned i = 0; i < 3; i++) {
		struct tc_ch *c = &t->ch[i];

		c->tcb = t;
		c->idx = i;
		c->irq = irq[i];
		c->stop_pos = UINT64_MAX;
		c->ev.fire = rc_fire;
		c->ev.priv = c;
		vemu_event_add(vm, &c->ev);
	}
}
