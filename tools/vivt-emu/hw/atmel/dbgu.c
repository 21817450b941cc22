/*
 * Atmel DBGU (AT91SAM9G20 datasheet, "Debug Unit"): the UART part.  TX goes
 * to stdout at once (TXRDY and TXEMPTY stay set while the transmitter is
 * enabled); RX has the single holding register RHR: a byte that arrives
 * while RXRDY is still set overwrites it and sets OVRE, as on the chip.
 * Input (stdin or --input) arrives at most one byte per character time at
 * the baud rate BRGR sets from MCK (10 bits per 8N1 character), only once
 * the receiver and its interrupt are enabled, and only when RHR has been
 * read: a typist who waits for the echo.  So the input never overruns
 * (the firmware may still boot with IRQs off for longer than a character
 * time).  With --input-line it is a host sending at the line's rate: from
 * the first time the receiver listens, a byte every character time
 * whatever the firmware does, and one that finds RXRDY still set
 * overwrites RHR and sets OVRE.  The interrupt, SR & IMR, drives one input
 * of the system interrupt.
 *
 * The PDC's transmit half is a bus master: with PTCR.TXTEN it reads the
 * next byte at TPR from physical memory (never the D-cache nor the write
 * buffer: the oracle's ms_dma_read judges it) once per character time,
 * then TNPR/TNCR follow as on the chip; ENDTX and TXBUFE in SR say when
 * the counts are done.
 *
 * Checked against the datasheet, each stopping the run: THR written with
 * the transmitter disabled (the byte would be lost), BRGR.CD 0 (baud
 * clock off) with the receiver on, a mode other than normal 8N1-style
 * operation (CHMODE), the PDC's receive half, the PDC reading outside RAM,
 * and the chip-id registers (not modelled).
 */
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>
#include "hw/atmel/atmel.h"
#include "memsys/memsys.h"

#define CR_RSTRX	(1u << 2)
#define CR_RSTTX	(1u << 3)
#define CR_RXEN		(1u << 4)
#define CR_RXDIS	(1u << 5)
#define CR_TXEN		(1u << 6)
#define CR_TXDIS	(1u << 7)
#define CR_RSTSTA	(1u << 8)
#define SR_RXRDY	(1u << 0)
#define SR_TXRDY	(1u << 1)
#define SR_OVRE		(1u << 5)
#define SR_FRAME	(1u << 6)
#define SR_PARE		(1u << 7)
#define SR_TXEMPTY	(1u << 9)
#define SR_ENDTX	(1u << 4)
#define SR_TXBUFE	(1u << 11)
#define PTCR_RXTEN	(1u << 0)
#define PTCR_TXTEN	(1u << 8)
#define PTCR_TXTDIS	(1u << 9)
#define IMR_BITS	0xc0001afbu
#define MR_CHMODE	(3u << 14)

struct atmel_dbgu {
	struct device dev;
	struct irq_line irq;
	int fd;			/* -1 once the input has ended */
	bool line, started;	/* --input-line; the receiver has listened once */
	bool rxen, txen;
	uint32_t mr, imr, brgr, status;	/* status: RXRDY, OVRE, FRAME, PARE */
	uint8_t rhr;
	struct event rx_ev;
	/* PDC, transmit half */
	uint32_t tpr, tcr, tnpr, tncr;
	bool txten;
	uint32_t tx_pc;		/* the instruction that started it: named in reports */
	struct event tx_ev;
};

static uint32_t sr(const struct atmel_dbgu *u)
{
	return u->status | (u->txen ? SR_TXRDY | SR_TXEMPTY : 0) | (u->tcr ? 0 : SR_ENDTX) |
	       (u->tcr || u->tncr ? 0 : SR_TXBUFE);
}

static uint64_t char_ns(const struct atmel_dbgu *u)
{
	/* baud = MCK / (16 * CD); 10 bit times per character. */
	return 10ull * 16 * (u->brgr & 0xffff) * 1000000000ull / AT91_MCK_HZ;
}

static bool receiving(const struct atmel_dbgu *u);
static void pdc_tx_kick(struct atmel_dbgu *u);

static void update_irq(struct atmel_dbgu *u)
{
	irq_set(&u->irq, (sr(u) & u->imr) != 0);
	if (receiving(u) && !u->rx_ev.armed)
		vemu_event_arm(u->dev.vm, &u->rx_ev, u->dev.vm->now + char_ns(u));
	pdc_tx_kick(u);
}

/* The PDC sends one byte per character time while it has a count. */
static void pdc_tx_kick(struct atmel_dbgu *u)
{
	if (u->txten && u->txen && u->tcr && !u->tx_ev.armed)
		vemu_event_arm(u->dev.vm, &u->tx_ev, u->dev.vm->now + char_ns(u));
}

static void pdc_tx_byte(struct event *e)
{
	struct atmel_dbgu *u = e->priv;
	struct vemu *vm = u->dev.vm;
	uint32_t off = u->tpr - vm->mach->ram_base;

	if (!u->txten || !u->txen || !u->tcr)
		return;
	if (off >= vm->ram_size) {
		vemu_fail(vm, "DBGU PDC: TPR 0x%08x is outside RAM (no bus error is modelled)", u->tpr);
		return;
	}
	/* A device at work is progress: a WFI it ended is not the halt loop. */
	vm->wfi_repeats = 0;
	if (vm->ms)	/* --no-model: no oracle to tell */
		ms_dma_read(vm->ms, u->tpr, 1, u->tx_pc);
	vemu_console_putc(vm, vm->ram[off]);
	u->tpr++;
	if (--u->tcr == 0 && u->tncr) {
		u->tpr = u->tnpr;
		u->tcr = u->tncr;
		u->tncr = 0;
	}
	update_irq(u);
}


static bool receiving(const struct atmel_dbgu *u)
{
	return u->fd >= 0 && u->rxen && (u->imr & SR_RXRDY) && (u->brgr & 0xffff);
}

/* Input is looked at only while receiving: an idle poll would wake every WFI. */
static void rx_poll(struct event *e)
{
	struct atmel_dbgu *u = e->priv;
	struct vemu *vm = u->dev.vm;

	if (u->line && !u->started)
		u->started = receiving(u);
	if (u->line ? u->started && u->fd >= 0 && (u->brgr & 0xffff) : receiving(u)) {
		struct pollfd p = { .fd = u->fd, .events = POLLIN };

		/* The typist waits for RHR to be read (see the top of the file); a line does not. */
		if ((u->line || !(u->status & SR_RXRDY)) && poll(&p, 1, 0) > 0) {
			uint8_t c;

			if (read(u->fd, &c, 1) != 1) {
				u->fd = -1;	/* end of input */
				return;
			}
			if (u->rxen) {		/* a line's byte to a disabled receiver is lost */
				if (u->status & SR_RXRDY)
					u->status |= SR_OVRE;
				u->rhr = c;
				u->status |= SR_RXRDY;
				update_irq(u);
			}
		}
		if (u->fd >= 0)
			vemu_event_arm(vm, e, vm->now + char_ns(u));
	}
}

/* A byte of input would set RXRDY now (the typist waits for RHR to be read). */
static int input_fd(struct event *e)
{
	struct atmel_dbgu *u = e->priv;

	if (u->line && u->started)
		return u->fd;
	return receiving(u) && !(u->status & SR_RXRDY) ? u->fd : -1;
}

static bool dbgu_read(struct device *d, uint32_t off, unsigned size, uint32_t *val)
{
	struct atmel_dbgu *u = d->priv;

	if (size != 4)
		return false;
	switch (off) {
	case 0x04: *val = u->mr; return true;
	case 0x10: *val = u->imr; return true;
	case 0x14: *val = sr(u); return true;
	case 0x18:
		*val = u->rhr;
		u->status &= ~SR_RXRDY;
		update_irq(u);
		return true;
	case 0x20: *val = u->brgr; return true;
	case 0x108: *val = u->tpr; return true;
	case 0x10c: *val = u->tcr; return true;
	case 0x118: *val = u->tnpr; return true;
	case 0x11c: *val = u->tncr; return true;
	case 0x124: *val = u->txten ? PTCR_TXTEN : 0; return true;
	}
	return false;
}

static bool dbgu_write(struct device *d, uint32_t off, unsigned size, uint32_t val)
{
	struct atmel_dbgu *u = d->priv;

	if (size != 4)
		return false;
	switch (off) {
	case 0x00:
		if (val & CR_RSTRX) { u->rxen = false; u->status &= ~SR_RXRDY; }
		if (val & CR_RSTTX) u->txen = false;
		if (val & CR_RSTSTA) u->status &= ~(SR_OVRE | SR_FRAME | SR_PARE);
		if (val & CR_RXEN) u->rxen = true;
		if (val & CR_RXDIS) u->rxen = false;
		if (val & CR_TXEN) u->txen = true;
		if (val & CR_TXDIS) u->txen = false;
		if (u->rxen && !(u->brgr & 0xffff))
			vemu_fail(d->vm, "DBGU: receiver enabled with BRGR.CD 0 (baud clock off)");
		break;
	case 0x04:
		if (val & MR_CHMODE)
			vemu_fail(d->vm, "DBGU: MR.CHMODE %u (echo/loopback) is not modelled", (val >> 14) & 3);
		u->mr = val;
		break;
	case 0x08: u->imr |= val & IMR_BITS; break;
	case 0x0c: u->imr &= ~val; break;
	case 0x1c:
		if (!u->txen) {
			vemu_fail(d->vm, "DBGU: THR written with the transmitter disabled (byte 0x%02x lost)", val & 0xff);
			return true;
		}
		vemu_console_putc(d->vm, (int)(val & 0xff));
		return true;
	case 0x20: u->brgr = val & 0xffff; return true;
	case 0x108: u->tpr = val; break;
	case 0x10c: u->tcr = val & 0xffff; break;
	case 0x118: u->tnpr = val; break;
	case 0x11c: u->tncr = val & 0xffff; break;
	case 0x120:
		if (val & PTCR_RXTEN)
			vemu_fail(d->vm, "DBGU: the PDC's receive half is not modelled");
		if (val & PTCR_TXTEN) {
			u->txten = true;
			u->tx_pc = d->vm->block_pc;
		}
		if (val & PTCR_TXTDIS)
			u->txten = false;
		break;
	default:
		return false;
	}
	update_irq(u);
	return true;
}

void atmel_dbgu_create(struct vemu *vm, uint32_t base, struct irq_line irq, const char *input)
{
	struct atmel_dbgu *u = DEVICE_NEW(vm, struct atmel_dbgu, .name = "DBGU", .base = base,
					  .size = 0x200, .read = dbgu_read,
					  .write = dbgu_write);
	u->irq = irq;
	u->line = vm->opt.input_line;
	u->fd = vemu_console_input(input);
	u->rx_ev.fire = rx_poll;
	u->rx_ev.input_fd = input_fd;
	u->rx_ev.priv = u;
	vemu_event_add(vm, &u->rx_ev);
	u->tx_ev.fire = pdc_tx_byte;
	u->tx_ev.priv = u;
	vemu_event_add(vm, &u->tx_ev);
}
