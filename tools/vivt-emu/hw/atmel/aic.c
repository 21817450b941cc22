/*
 * Atmel AIC (AT91SAM9G20 datasheet, "Advanced Interrupt Controller"):
 * 32 sources with level or edge detection and eight priorities, the
 * vectored IVR/EOICR protocol with its 8-level priority stack, software
 * set/clear of edge sources, and the spurious vector.
 *
 * The protocol as modelled (datasheet "Interrupt Handling" and "Priority
 * Controller"):
 * - nIRQ is asserted while an enabled pending source has a priority above
 *   the current level (the top of the stack; none in service: any source).
 *   Of equal priorities the lowest source number wins.
 * - Reading IVR takes that source into service: its vector (SVR) is
 *   returned, source and level are pushed, ISR names the source, an edge
 *   source's pending bit clears, and nIRQ drops until something of higher
 *   priority arrives.  Writing EOICR pops the stack.
 * Choices where the datasheet leaves behaviour open:
 * - A read of IVR with nothing to take returns SPU and pushes a spurious
 *   entry that keeps the current level (with nothing in service, every
 *   priority may still interrupt): the datasheet tells the spurious handler
 *   to write EOICR, and the model holds the firmware to that (an IVR read
 *   with eight entries stacked stops the run as a stack overflow).
 * - EOICR with an empty stack does nothing (a driver unwinding what a
 *   boot loader left, as Linux's does, writes it eight times).
 * - Protect mode (DCR.PROT) and FIQ (source 0, FVR, fast forcing) are
 *   not modelled: touching them stops the run.
 * - A level source's pending bit follows its line; an edge source latches
 *   a rising line (internal sources are active high) until IVR or ICCR.
 */
#include <stdlib.h>
#include "hw/atmel/atmel.h"

#define NSRC		32
#define STACK_DEPTH	8
#define SMR_PRIOR(s)	((s) & 7u)
#define SMR_EDGE(s)	((s) >> 5 & 1u)		/* SRCTYPE 01/11: edge */
#define DCR_PROT	1u
#define DCR_GMSK	2u

struct aic_level { int source; int prio; };	/* source -1: spurious */

struct atmel_aic {
	struct device dev;
	uint32_t smr[NSRC], svr[NSRC];
	uint32_t line, pending, enabled, spu, dcr, isr;
	struct aic_level stack[STACK_DEPTH];
	unsigned depth;
};

/* The priority in service; -1 with nothing in service (any source may interrupt). */
static int current_level(const struct atmel_aic *a)
{
	return a->depth ? a->stack[a->depth - 1].prio : -1;
}

/* Highest-priority enabled pending source above the current level, or -1. */
static int aic_candidate(const struct atmel_aic *a)
{
	uint32_t ready = a->pending & a->enabled;
	int best = -1;

	for (int s = 0; s < NSRC; s++) {
		if (!(ready >> s & 1))
			continue;
		if ((int)SMR_PRIOR(a->smr[s]) <= current_level(a))
			continue;
		if (best < 0 || SMR_PRIOR(a->smr[s]) > SMR_PRIOR(a->smr[best]))
			best = s;
	}
	return best;
}

static void aic_update(struct atmel_aic *a)
{
	a->dev.vm->irq_source = aic_candidate(a);
	vemu_set_irq(a->dev.vm, !(a->dcr & DCR_GMSK) && aic_candidate(a) >= 0);
}

static void aic_set(void *ctl, unsigned source, bool level)
{
	struct atmel_aic *a = ctl;
	uint32_t bit = 1u << source;
	bool rising = level && !(a->line & bit);

	a->line = level ? a->line | bit : a->line & ~bit;
	if (SMR_EDGE(a->smr[source])) {
		if (rising)
			a->pending |= bit;
	} else {
		a->pending = level ? a->pending | bit : a->pending & ~bit;
	}
	aic_update(a);
}

struct irq_line atmel_aic_input(struct atmel_aic *aic, unsigned source)
{
	return (struct irq_line){ aic_set, aic, source };
}

static uint32_t aic_ivr(struct atmel_aic *a)
{
	int s = aic_candidate(a);

	if (a->depth == STACK_DEPTH) {
		vemu_fail(a->dev.vm, "AIC: IVR read with %d interrupts in service: the priority stack "
			  "overflows (is EOICR written after each one, the spurious one too?)", STACK_DEPTH);
		return a->spu;
	}
	if (s < 0) {
		int level = current_level(a);

		a->stack[a->depth] = (struct aic_level){ -1, level };
		a->depth++;
		aic_update(a);
		return a->spu;
	}
	a->stack[a->depth] = (struct aic_level){ s, (int)SMR_PRIOR(a->smr[s]) };
	a->depth++;
	a->isr = (uint32_t)s;
	if (SMR_EDGE(a->smr[s]))
		a->pending &= ~(1u << s);
	aic_update(a);
	return a->svr[s];
}

static bool aic_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct atmel_aic *a = d->priv;

	if (size != 4)
		return false;
	if (off < 0x80) { *val = a->smr[off / 4]; return true; }
	if (off < 0x100) { *val = a->svr[(off - 0x80) / 4]; return true; }
	switch (off) {
	case 0x100: *val = aic_ivr(a); return true;
	case 0x108: *val = a->isr; return true;
	case 0x10c: *val = a->pending; return true;
	case 0x110: *val = a->enabled; return true;
	case 0x114: *val = d->vm->irq_level ? 2u : 0u; return true;	/* CISR.NIRQ */
	case 0x134: *val = a->spu; return true;
	case 0x138: *val = a->dcr; return true;
	}
	return false;
}

static bool aic_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct atmel_aic *a = d->priv;

	if (size != 4)
		return false;
	if (off < 0x80) {
		a->smr[off / 4] = val & 0x67u;
		/* A source turned level follows its line again. */
		if (!SMR_EDGE(a->smr[off / 4]))
			a->pending = (a->pending & ~(1u << off / 4)) | (a->line & (1u << off / 4));
	} else if (off < 0x100) {
		a->svr[(off - 0x80) / 4] = val;
	} else {
		switch (off) {
		case 0x120: a->enabled |= val; break;
		case 0x124: a->enabled &= ~val; break;
		case 0x128:	/* ICCR: edge sources only */
			for (int s = 0; s < NSRC; s++)
				if ((val >> s & 1) && SMR_EDGE(a->smr[s]))
					a->pending &= ~(1u << s);
			break;
		case 0x12c:	/* ISCR: edge sources only */
			for (int s = 0; s < NSRC; s++)
				if ((val >> s & 1) && SMR_EDGE(a->smr[s]))
					a->pending |= 1u << s;
			break;
		case 0x130:
			if (a->depth)
				a->depth--;
			break;
		case 0x134: a->spu = val; break;
		case 0x138:
			if (val & DCR_PROT) {
				vemu_fail(d->vm, "AIC: protect mode (DCR.PROT) is not modelled");
				return true;
			}
			a->dcr = val & 3u;
			break;
		default:
			return false;
		}
	}
	if ((a->enabled | a->pending) & 1u) {
		vemu_fail(d->vm, "AIC: source 0 (FIQ) is not modelled");
		return true;
	}
	aic_update(a);
	return true;
}

/* A run that ends with interrupts in service, or with one pending that the
 * current level blocks, often lacks an EOICR: say so beside the verdict. */
static void aic_finish(struct device *d)
{
	struct atmel_aic *a = d->priv;
	uint32_t blocked = a->pending & a->enabled;
	struct aic_level top;

	if (!a->depth)
		return;
	top = a->stack[a->depth - 1];
	fprintf(d->vm->out, "vivt-emu: AIC at the end: %u stack entr%s in service, the top %s (source %d) at level %d%s\n",
		a->depth, a->depth == 1 ? "y" : "ies", top.source < 0 ? "a spurious read" : "an interrupt",
		top.source, top.prio,
		blocked ? "; pending sources held off (EOICR not written?)" : "");
}

struct atmel_aic *atmel_aic_create(struct vemu *vm, uint32_t base)
{
	struct atmel_aic *a = DEVICE_NEW(vm, struct atmel_aic, .name = "AIC", .base = base,
					 .size = 0x200, .read = aic_read, .write = aic_write,
					 .finish = aic_finish);
	return a;
}

/* ---- the system interrupt: a wired OR on AIC source 1 ---- */

struct atmel_sysirq {
	struct irq_line out;
	uint32_t inputs;
};

static void sysirq_set(void *ctl, unsigned n, bool level)
{
	struct atmel_sysirq *s = ctl;

	s->inputs = level ? s->inputs | 1u << n : s->inputs & ~(1u << n);
	irq_set(&s->out, s->inputs != 0);
}

struct atmel_sysirq *atmel_sysirq_create(struct irq_line out)
{
	struct atmel_sysirq *s = calloc(1, sizeof(*s));

	if (!s)
		abort();
	s->out = out;
	return s;
}

struct irq_line atmel_sysirq_input(struct atmel_sysirq *s, unsigned n)
{
	return (struct irq_line){ sysirq_set, s, n };
}
