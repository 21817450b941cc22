/*
 * ARM PrimeCell PL080 DMA controller (DDI0196), memory-to-memory transfers
 * (flow control 0) as QEMU models them, but taking time: a channel started
 * at T finishes its linked-list chain at T + setup + per word, and only then
 * does the data move, so the CPU runs meanwhile as it would beside a real
 * controller.  The controller is a bus master: it reads and writes
 * physical memory (the coherent RAM), never the D-cache nor the write
 * buffer, and tells the memory-system oracle (ms_dma_read, ms_dma_write),
 * which reports a transfer that reads data still in the cache or whose
 * data a stale line later hides or overwrites.  The linked-list items are
 * read from memory the same way.  An address outside RAM is a bus error:
 * the channel stops with its error interrupt.
 */
#include <stdlib.h>
#include <string.h>
#include "hw/devices.h"
#include "memsys/memsys.h"

#define NCHAN		8
#define SETUP_NS	200
#define NS_PER_WORD	20
#define MAX_ITEMS	4096	/* a chain longer than this is a loop: a bus error */

#define CONF_E		(1u << 0)
#define CCONF_E		(1u << 0)
#define CCONF_IE	(1u << 14)
#define CCONF_ITC	(1u << 15)
#define CCONF_A		(1u << 17)
#define CCONF_H		(1u << 18)
#define CCTRL_SI	(1u << 26)
#define CCTRL_DI	(1u << 27)
#define CCTRL_I		(1u << 31)

struct pl080;
struct pl080_chan {
	struct pl080 *owner;
	unsigned n;
	uint32_t src, dst, lli, ctrl, conf;
	uint32_t start_pc;	/* the write that started it: named in reports */
	struct event ev;
};

struct pl080 {
	struct device dev;
	struct irq_line irq;
	uint32_t conf, sync;
	uint8_t tc_int, err_int;
	struct pl080_chan ch[NCHAN];
};

static void update_irq(struct pl080 *s)
{
	uint8_t tc_mask = 0, err_mask = 0;

	for (unsigned c = 0; c < NCHAN; c++) {
		tc_mask |= (s->ch[c].conf & CCONF_ITC) ? 1u << c : 0;
		err_mask |= (s->ch[c].conf & CCONF_IE) ? 1u << c : 0;
	}
	irq_set(&s->irq, (s->tc_int & tc_mask) || (s->err_int & err_mask));
}

static bool in_ram(struct vemu *vm, uint32_t pa, uint32_t len)
{
	uint32_t off = pa - vm->mach->ram_base;

	return off < vm->ram_size && len <= vm->ram_size - off;
}

/* The bytes one item moves (transfer size in source-width units). */
static uint32_t item_bytes(uint32_t ctrl, uint32_t *swidth)
{
	*swidth = 1u << ((ctrl >> 18) & 7);
	return (ctrl & 0xfff) * *swidth;
}

/* Move one item as a bus master; false on a bus error. */
static bool move_item(struct pl080_chan *ch)
{
	struct vemu *vm = ch->owner->dev.vm;
	uint32_t sw, len = item_bytes(ch->ctrl, &sw), base = vm->mach->ram_base;

	if (!len)
		return true;
	if (sw > 4 || !(ch->ctrl & CCTRL_SI) || !(ch->ctrl & CCTRL_DI) ||
	    !in_ram(vm, ch->src, len) || !in_ram(vm, ch->dst, len))
		return false;	/* only incrementing memory-to-memory copies are modelled */
	if (vm->ms)	/* --no-model: no oracle to tell */
		ms_dma_read(vm->ms, ch->src, len, ch->start_pc);
	memmove(vm->ram + (ch->dst - base), vm->ram + (ch->src - base), len);
	if (vm->ms)
		ms_dma_write(vm->ms, ch->dst, len, ch->start_pc);
	ch->src += len;
	ch->dst += len;
	ch->ctrl &= ~0xfffu;
	return true;
}

/* The chain runs to its end (or a bus error) at once, when its time is up. */
static void finish(struct event *e)
{
	struct pl080_chan *ch = e->priv;
	struct pl080 *s = ch->owner;
	struct vemu *vm = s->dev.vm;
	unsigned items = 0;

	vm->wfi_repeats = 0;	/* a device at work is progress, not the halt loop */
	for (;;) {
		uint32_t w[4];

		if (!move_item(ch))
			goto bus_error;
		if (ch->ctrl & CCTRL_I)
			s->tc_int |= 1u << ch->n;
		if (!ch->lli)
			break;
		if (++items > MAX_ITEMS || !in_ram(vm, ch->lli & ~3u, 16))
			goto bus_error;
		/* The item is read from memory too: an uncleaned chain is a stale read. */
		if (vm->ms)
			ms_dma_read(vm->ms, ch->lli & ~3u, 16, ch->start_pc);
		memcpy(w, vm->ram + ((ch->lli & ~3u) - vm->mach->ram_base), 16);
		ch->src = w[0];
		ch->dst = w[1];
		ch->lli = w[2];
		ch->ctrl = w[3];
	}
	ch->conf &= ~(CCONF_E | CCONF_A);
	update_irq(s);
	return;
bus_error:
	s->err_int |= 1u << ch->n;
	ch->conf &= ~(CCONF_E | CCONF_A);
	update_irq(s);
}

/* Time the chain takes, walking it without moving anything. */
static uint64_t chain_ns(struct pl080_chan *ch)
{
	struct vemu *vm = ch->owner->dev.vm;
	uint32_t sw, ctrl = ch->ctrl, lli = ch->lli;
	uint64_t words = item_bytes(ctrl, &sw) / 4 + 1;

	for (unsigned i = 0; lli && i < MAX_ITEMS && in_ram(vm, lli & ~3u, 16); i++) {
		uint32_t w[4];

		memcpy(w, vm->ram + ((lli & ~3u) - vm->mach->ram_base), 16);
		words += item_bytes(w[3], &sw) / 4 + 1;
		lli = w[2];
	}
	return SETUP_NS + words * NS_PER_WORD;
}

static void maybe_start(struct pl080 *s, struct pl080_chan *ch)
{
	struct vemu *vm = s->dev.vm;

	if (!(s->conf & CONF_E) || (ch->conf & (CCONF_E | CCONF_H)) != CCONF_E || ch->ev.armed)
		return;
	if ((ch->conf >> 11) & 7) {
		s->err_int |= 1u << ch->n;	/* peripheral flow control: not modelled */
		ch->conf &= ~CCONF_E;
		return;
	}
	ch->conf |= CCONF_A;
	ch->start_pc = vm->block_pc;
	vemu_event_arm(vm, &ch->ev, vm->now + chain_ns(ch));
}

static bool dma_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct pl080 *s = d->priv;
	uint8_t tc_mask = 0, err_mask = 0, en = 0;

	(void)size;
	if (off >= 0xfe0 && off < 0x1000) {
		static const uint8_t id[8] = { 0x80, 0x10, 0x04, 0x0a, 0x0d, 0xf0, 0x05, 0xb1 };
		*val = id[(off - 0xfe0) / 4];
		return true;
	}
	if (off >= 0x100 && off < 0x200) {
		struct pl080_chan *ch = &s->ch[(off - 0x100) / 0x20];

		switch (off & 0x1f) {
		case 0x00: *val = ch->src; return true;
		case 0x04: *val = ch->dst; return true;
		case 0x08: *val = ch->lli; return true;
		case 0x0c: *val = ch->ctrl; return true;
		case 0x10: *val = ch->conf; return true;
		}
		return false;
	}
	for (unsigned c = 0; c < NCHAN; c++) {
		tc_mask |= (s->ch[c].conf & CCONF_ITC) ? 1u << c : 0;
		err_mask |= (s->ch[c].conf & CCONF_IE) ? 1u << c : 0;
		en |= (s->ch[c].conf & CCONF_E) ? 1u << c : 0;
	}
	switch (off) {
	case 0x00: *val = (s->tc_int & tc_mask) | (s->err_int & err_mask); return true;
	case 0x04: *val = s->tc_int & tc_mask; return true;
	case 0x0c: *val = s->err_int & err_mask; return true;
	case 0x14: *val = s->tc_int; return true;
	case 0x18: *val = s->err_int; return true;
	case 0x1c: *val = en; return true;
	case 0x30: *val = s->conf; return true;
	case 0x34: *val = s->sync; return true;
	}
	return false;
}

static bool dma_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct pl080 *s = d->priv;

	(void)size;
	if (off >= 0x100 && off < 0x200) {
		struct pl080_chan *ch = &s->ch[(off - 0x100) / 0x20];

		switch (off & 0x1f) {
		case 0x00: ch->src = val; break;
		case 0x04: ch->dst = val; break;
		case 0x08: ch->lli = val; break;
		case 0x0c: ch->ctrl = val; break;
		case 0x10:
			/* Clearing E stops the channel; its transfer does not happen. */
			if (!(val & CCONF_E) && ch->ev.armed)
				vemu_event_cancel(d->vm, &ch->ev);
			ch->conf = (val & ~CCONF_A) | (ch->ev.armed ? CCONF_A : 0);
			if (!(val & CCONF_E))
				ch->conf &= ~CCONF_A;
			maybe_start(s, ch);
			break;
		default:
			return false;
		}
		update_irq(s);
		return true;
	}
	switch (off) {
	case 0x08: s->tc_int &= ~val; break;
	case 0x10: s->err_int &= ~val; break;
	case 0x30:
		s->conf = val;
		for (unsigned c = 0; c < NCHAN; c++)
			maybe_start(s, &s->ch[c]);
		break;
	case 0x34: s->sync = val; break;
	default:
		return false;
	}
	update_irq(s);
	return true;
}

void pl080_create(struct vemu *vm, uint32_t base, struct irq_line irq)
{
	struct pl080 *s = DEVICE_NEW(vm, struct pl080, .name = "PL080 DMA controller",
				     .base = base, .size = 0x1000, .read = dma_read,
				     .write = dma_write);
	s->irq = irq;
	for (unsigned c = 0; c < NCHAN; c++) {
		s->ch[c].owner = s;
		s->ch[c].n = c;
		s->ch[c].ev.fire = finish;
		s->ch[c].ev.priv = &s->ch[c];
		vemu_event_add(vm, &s->ch[c].ev);
	}
}
