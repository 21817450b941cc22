/*
 * Interrupts-off and preemption-off windows: which stretch is open, and
 * the longest of each kind (see irqsoff.h for the definitions).
 */
#include <string.h>
#include "irqsoff.h"

#define PREEMPT_BITS	0xffu	/* preempt_disable() nesting; hard-IRQ bits are not preemption */
#define HARDIRQ_BITS	0xf0000u

static void cost_sub(struct iw_cost *d, const struct iw_cost *a, const struct iw_cost *b)
{
	d->dfills = a->dfills - b->dfills;
	d->ifills = a->ifills - b->ifills;
	d->dwritebacks = a->dwritebacks - b->dwritebacks;
	d->cp15 = a->cp15 - b->cp15;
	d->walks = a->walks - b->walks;
	d->drains = a->drains - b->drains;
	d->pipe = a->pipe - b->pipe;
}

static void cost_add(struct iw_cost *d, const struct iw_cost *a)
{
	d->dfills += a->dfills;
	d->ifills += a->ifills;
	d->dwritebacks += a->dwritebacks;
	d->cp15 += a->cp15;
	d->walks += a->walks;
	d->drains += a->drains;
	d->pipe += a->pipe;
}

void irqsoff_init(struct irqsoff *s, bool masked)
{
	memset(s, 0, sizeof(*s));
	s->cur.vector = s->cur.line = -1;
	if (masked) {
		s->open = IW_BOOT;
		s->cur.start = 0;
	}
}

static void open_window(struct irqsoff *s, enum iw_open kind, uint64_t pos, uint32_t pc,
			int vector, int line, const struct iw_cost *now)
{
	s->open = kind;
	s->cur = (struct iw_window){ .start = pos, .open_pc = pc, .vector = vector, .line = line };
	s->cur_at = *now;
}

static void keep_max(struct iw_window *max, const struct iw_window *w)
{
	if (w->len > max->len)
		*max = *w;
}

static void note_site(struct irqsoff *s, const struct iw_window *w)
{
	unsigned i;

	for (i = 0; i < s->nsites; i++)
		if (s->sites[i].max.open_pc == w->open_pc)
			break;
	if (i == s->nsites) {
		if (s->nsites == IW_SITES) {
			s->sites_dropped++;
			return;
		}
		s->nsites++;
	}
	s->sites[i].count++;
	keep_max(&s->sites[i].max, w);
}

static void close_window(struct irqsoff *s, uint64_t pos, uint32_t pc, const struct iw_cost *now)
{
	struct iw_window *w = &s->cur;

	w->len = pos - w->start + 1;
	w->close_pc = pc;
	cost_sub(&w->cost, now, &s->cur_at);
	switch (s->open) {
	case IW_THREAD:
		s->thread_count++;
		keep_max(&s->thread_max, w);
		note_site(s, w);
		/* Told apart only when it could be the longest of either kind (cheap). */
		if (w->len > s->thread_max_by[IW_KERNEL].len || w->len > s->thread_max_by[IW_APP].len)
			keep_max(&s->thread_max_by[s->classify ? s->classify(s->classify_ctx, w->open_pc, 0) : IW_KERNEL], w);
		break;
	case IW_HANDLER:
		if (w->vector >= 0 && w->vector < IW_VECTORS) {
			s->vec_count[w->vector]++;
			keep_max(&s->vec_max[w->vector], w);
		}
		if (w->line >= 0 && w->line < IW_LINES) {
			s->line_count[w->line]++;
			keep_max(&s->line_max[w->line], w);
			if (w->len - w->own > s->line_kernel_max[w->line].len - s->line_kernel_max[w->line].own)
				s->line_kernel_max[w->line] = *w;
		}
		if (w->len - w->own > s->handler_kernel_max.len - s->handler_kernel_max.own)
			s->handler_kernel_max = *w;
		break;
	case IW_BOOT:
		s->boot = *w;
		break;
	case IW_NONE:
		break;
	}
	s->open = IW_NONE;
}

void irqsoff_psr_write(struct irqsoff *s, uint64_t pos, uint32_t pc, bool masked,
		       bool is_return, const struct iw_cost *now)
{
	if (s->open == IW_NONE) {
		if (masked)
			open_window(s, IW_THREAD, pos, pc, -1, -1, now);
		return;
	}
	if (!masked) {
		close_window(s, pos, pc, now);
	} else if (is_return && s->open == IW_HANDLER) {
		/* Back from the exception into a context that keeps them masked. */
		close_window(s, pos, pc, now);
		open_window(s, IW_THREAD, pos, pc, -1, -1, now);
	}
}

void irqsoff_exception(struct irqsoff *s, uint64_t pos, int vector, int line, const struct iw_cost *now)
{
	if (s->open == IW_NONE)	/* else the open window runs on through the handler */
		open_window(s, IW_HANDLER, pos, 0, vector, line, now);
}

void irqsoff_preempt(struct irqsoff *s, uint64_t pos, uint32_t pc, uint32_t lr,
		     uint32_t old, uint32_t new, const struct iw_cost *now)
{
	bool was = old & PREEMPT_BITS, is = new & PREEMPT_BITS;

	if (!s->preempt_booted) {
		/* The boot thread is atomic until the scheduler starts: not a window. */
		if (!new)
			s->preempt_booted = true;
		return;
	}
	if (!was && is) {
		s->preempt_open = true;
		s->pcur = (struct iw_window){ .start = pos, .open_pc = pc, .open_lr = lr, .vector = -1, .line = -1 };
		s->pcur_at = *now;
		s->pirq_open = false;
		s->pirq_insns = 0;
	} else if (was && !is && s->preempt_open) {
		enum iw_who who = s->classify ? s->classify(s->classify_ctx, s->pcur.open_pc, s->pcur.open_lr) : IW_KERNEL;

		s->pcur.len = pos - s->pcur.start + 1 - s->pirq_insns;
		s->pcur.close_pc = pc;
		cost_sub(&s->pcur.cost, now, &s->pcur_at);
		s->preempt_count[who]++;
		keep_max(&s->preempt_max[who], &s->pcur);
		s->preempt_open = false;
	} else if (s->preempt_open && !(old & HARDIRQ_BITS) && (new & HARDIRQ_BITS)) {
		s->pirq_open = true;
		s->pirq_start = pos;
		s->pirq_at = *now;
	} else if (s->preempt_open && s->pirq_open && (old & HARDIRQ_BITS) && !(new & HARDIRQ_BITS)) {
		struct iw_cost c;

		/* The window's baseline moves past the IRQ: its counters are not the window's. */
		s->pirq_open = false;
		s->pirq_insns += pos - s->pirq_start;
		cost_sub(&c, now, &s->pirq_at);
		cost_add(&s->pcur_at, &c);
	}
}

double irqsoff_cycles(const struct iw_costs *c, const struct iw_window *w)
{
	return (double)w->len * c->insn + (double)w->cost.dfills * c->dfill +
	       (double)w->cost.ifills * c->ifill + (double)w->cost.dwritebacks * c->dwriteback +
	       (double)w->cost.cp15 * c->cp15 + (double)w->cost.walks * c->walk +
	       (double)w->cost.drains * c->drain + (double)w->cost.pipe * c->pipe;
}

const struct iw_site *irqsoff_site_rank(const struct irqsoff *s, unsigned n)
{
	const struct iw_site *prev = NULL;

	/* Selection by repeated scans: printed once per run, for a few ranks. */
	for (unsigned r = 0; r <= n; r++) {
		const struct iw_site *best = NULL;

		for (unsigned i = 0; i < s->nsites; i++) {
			const struct iw_site *x = &s->sites[i];

			if (prev && (x->max.len > prev->max.len ||
				     (x->max.len == prev->max.len && x <= prev)))
				continue;
			if (!best || x->max.len > best->max.len)
				best = x;
		}
		if (!best)
			return NULL;
		prev = best;
	}
	return prev;
}
