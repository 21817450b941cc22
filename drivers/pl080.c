/*
 * ARM PrimeCell PL080 DMA controller (DDI0196): DMA memcpy between
 * scatterlists, one channel per call.
 *
 * A transfer is a chain of linked-list items (LLIs), each a piece no
 * longer than either list's current entry: source, destination, next item,
 * control word. The chain itself is read by the controller from memory, so
 * it goes through the DMA API like the data (TO_DEVICE). Only the last item
 * asks for the terminal-count interrupt; the handler completes the
 * channel's waiter, which unmaps everything whatever the outcome.
 *
 * Channels are a counted resource (a semaphore of PL080_CHANNELS): a
 * caller sleeps for one or, with PL080_NOWAIT, gets -EBUSY.
 */
#include <errno.h>
#include <string.h>
#include <drivers/pl080.h>
#include <drivers/mmio.h>
#include <lokal/completion.h>
#include <lokal/irq.h>
#include <lokal/mutex.h>
#include <lokal/sched.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

#define DMAC_INT_TC_STATUS      0x004
#define DMAC_INT_TC_CLEAR       0x008
#define DMAC_INT_ERR_STATUS     0x00c
#define DMAC_INT_ERR_CLEAR      0x010
#define DMAC_ENBLD_CHNS         0x01c
#define DMAC_CONFIG             0x030
#define DMAC_CONFIG_E           (1u << 0)

#define CH_BASE(c)              (0x100u + 0x20u * (c))
#define CH_SRC                  0x00
#define CH_DST                  0x04
#define CH_LLI                  0x08
#define CH_CONTROL              0x0c
#define CH_CONFIG               0x10

/* Channel control word. */
#define CTRL_SIZE_MAX           0xfffu          /* transfer size, in source-width units */
#define CTRL_SWIDTH(w)          ((uint32_t)(w) << 18)   /* 0 byte, 2 word */
#define CTRL_DWIDTH(w)          ((uint32_t)(w) << 21)
#define CTRL_SI                 (1u << 26)
#define CTRL_DI                 (1u << 27)
#define CTRL_PROT_PRIV          (1u << 28)
#define CTRL_I                  (1u << 31)

/* Channel configuration (flow control 0: memory to memory, the controller paces). */
#define CFG_E                   (1u << 0)
#define CFG_IE                  (1u << 14)
#define CFG_ITC                 (1u << 15)
#define CFG_ACTIVE              (1u << 17)
#define CFG_HALT                (1u << 18)

struct pl080_lli {
	uint32_t src;
	uint32_t dst;
	uint32_t next;                  /* physical address of the next item, 0 ends */
	uint32_t control;
};

struct pl080_chan {
	struct completion done;
	int status;                     /* set by the handler: 0 or -EIO */
};

static uintptr_t regs;
static struct pl080_chan chans[PL080_CHANNELS];
static unsigned int chans_busy;         /* bit per channel, IRQs off to change */
static struct semaphore chans_free;
static struct pl080_stats stats;
/* One chain per channel, each in one page (512-byte aligned, 512 bytes). */
static struct pl080_lli llis[PL080_CHANNELS][PL080_MAX_ITEMS]
	__attribute__((aligned(PL080_MAX_ITEMS * sizeof(struct pl080_lli))));

/*
 * Only the channels that raised something are visited, lowest first: the
 * handler's window delays every other interrupt, the timers' included.
 */
static void pl080_irq(unsigned int irq, void *arg)
{
	uint32_t tc = mmio_read32(regs + DMAC_INT_TC_STATUS);
	uint32_t err = mmio_read32(regs + DMAC_INT_ERR_STATUS);
	uint32_t running = mmio_read32(regs + DMAC_ENBLD_CHNS);
	uint32_t todo = (tc | err) & chans_busy;

	(void)irq;
	(void)arg;
	mmio_write32(regs + DMAC_INT_TC_CLEAR, tc);
	mmio_write32(regs + DMAC_INT_ERR_CLEAR, err);
	while (todo) {
		unsigned int c = (unsigned int)__builtin_ctz(todo);
		uint32_t bit = 1u << c;

		todo &= ~bit;
		if (err & bit) {
			stats.err_irqs++;
			mmio_write32(regs + CH_BASE(c) + CH_CONFIG, 0);
			chans[c].status = -EIO;
			complete(&chans[c].done);
		} else if (!(running & bit)) {
			/* Only the end counts: the chain's last item is the one that interrupts. */
			stats.tc_irqs++;
			complete(&chans[c].done);
		}
	}
}

int pl080_init(uintptr_t base, unsigned int irq)
{
	if (regs == base)
		return 0;       /* a second user (the shell's demo after a bench) */
	regs = base;
	chans_busy = 0;
	memset(&stats, 0, sizeof(stats));
	sema_init(&chans_free, PL080_CHANNELS);
	for (unsigned int c = 0; c < PL080_CHANNELS; c++) {
		init_completion(&chans[c].done);
		mmio_write32(regs + CH_BASE(c) + CH_CONFIG, 0);
	}
	mmio_write32(regs + DMAC_INT_TC_CLEAR, 0xff);
	mmio_write32(regs + DMAC_INT_ERR_CLEAR, 0xff);
	mmio_write32(regs + DMAC_CONFIG, DMAC_CONFIG_E);
	return request_irq(irq, pl080_irq, NULL);
}

void pl080_get_stats(struct pl080_stats *st)
{
	unsigned long flags = arch_local_irq_save();

	*st = stats;
	arch_local_irq_restore(flags);
}

int pl080_request_chan(unsigned int flags)
{
	unsigned long irqf;
	int c;

	if (flags & PL080_NOWAIT) {
		if (down_trylock(&chans_free)) {
			stats.busy++;
			return -EBUSY;
		}
	} else {
		down(&chans_free);
	}
	irqf = arch_local_irq_save();
	c = __builtin_ctz(~chans_busy & ((1u << PL080_CHANNELS) - 1));
	chans_busy |= 1u << c;
	arch_local_irq_restore(irqf);
	return c;
}

void pl080_release_chan(int c)
{
	unsigned long irqf = arch_local_irq_save();

	chans_busy &= ~(1u << c);
	arch_local_irq_restore(irqf);
	up(&chans_free);
}

/* A channel that did not finish: halt it, let the current beat drain, disable. */
static void chan_stop(int c)
{
	uintptr_t cfg = regs + CH_BASE(c) + CH_CONFIG;

	mmio_write32(cfg, mmio_read32(cfg) | CFG_HALT);
	for (int i = 0; i < 1000 && (mmio_read32(cfg) & CFG_ACTIVE); i++)
		;
	mmio_write32(cfg, 0);
}

/*
 * Cut the two mapped lists into items; returns how many, or -EINVAL if
 * more than PL080_MAX_ITEMS are needed.
 */
static int build_chain(struct pl080_lli *lli, const struct scatterlist *dst, int dst_nents,
		       const struct scatterlist *src, int src_nents)
{
	int si = 0, di = 0, n = 0;
	uint32_t soff = 0, doff = 0;

	while (si < src_nents && di < dst_nents) {
		uint32_t s = sg_dma_address(&src[si]) + soff, d = sg_dma_address(&dst[di]) + doff;
		uint32_t len = sg_dma_len(&src[si]) - soff, width, units;

		if (sg_dma_len(&dst[di]) - doff < len)
			len = sg_dma_len(&dst[di]) - doff;
		/* Words while both ends are aligned, bytes for what is left. */
		if (!((s | d) & 3) && len >= 4) {
			len &= ~3u;
			if (len > 4 * CTRL_SIZE_MAX)
				len = 4 * CTRL_SIZE_MAX;
			width = 2;
			units = len / 4;
		} else {
			if (len > CTRL_SIZE_MAX)
				len = CTRL_SIZE_MAX;
			width = 0;
			units = len;
		}
		if (n == PL080_MAX_ITEMS)
			return -EINVAL;
		lli[n] = (struct pl080_lli){
			.src = s, .dst = d, .next = 0,
			.control = units | CTRL_SWIDTH(width) | CTRL_DWIDTH(width) |
				   CTRL_SI | CTRL_DI | CTRL_PROT_PRIV,
		};
		n++;
		soff += len;
		doff += len;
		if (soff == sg_dma_len(&src[si])) {
			si++;
			soff = 0;
		}
		if (doff == sg_dma_len(&dst[di])) {
			di++;
			doff = 0;
		}
	}
	return n;
}

static unsigned long sg_total(const struct scatterlist *sg, int nents)
{
	unsigned long t = 0;

	for (int i = 0; i < nents; i++)
		t += sg[i].length;
	return t;
}

int pl080_memcpy_sg(struct scatterlist *dst, int dst_nents,
		    struct scatterlist *src, int src_nents,
		    unsigned int flags, long timeout)
{
	struct pl080_lli *lli;
	dma_addr_t lli_dma;
	int c, n, ret = 0;

	might_sleep();
	if (!regs)
		panic("pl080_memcpy_sg in thread '%s': pl080_init() was not called", current->name);
	if (dst_nents <= 0 || src_nents <= 0 || sg_total(src, src_nents) == 0 ||
	    sg_total(src, src_nents) != sg_total(dst, dst_nents))
		return -EINVAL;
	c = pl080_request_chan(flags);
	if (c < 0)
		return c;
	lli = llis[c];
	if (!dma_map_sg(src, src_nents, DMA_TO_DEVICE)) {
		ret = -ENOMEM;
		goto out_chan;
	}
	if (!dma_map_sg(dst, dst_nents, DMA_FROM_DEVICE)) {
		ret = -ENOMEM;
		goto out_src;
	}
	n = build_chain(lli, dst, dst_nents, src, src_nents);
	if (n < 0) {
		ret = n;
		goto out_dst;
	}
	/* Each item points at the next by its device address, within the one page. */
	lli_dma = (dma_addr_t)__pa(lli);
	for (int i = 0; i + 1 < n; i++)
		lli[i].next = lli_dma + (uint32_t)((i + 1) * sizeof(*lli));
	lli[n - 1].control |= CTRL_I;
	lli_dma = dma_map_page(virt_to_page(lli), (uintptr_t)lli & (PAGE_SIZE - 1),
			       (size_t)n * sizeof(*lli), DMA_TO_DEVICE);
	if (dma_mapping_error(lli_dma)) {
		ret = -ENOMEM;
		goto out_dst;
	}
	reinit_completion(&chans[c].done);
	chans[c].status = 0;
	stats.transfers++;
	mmio_write32(regs + CH_BASE(c) + CH_SRC, lli[0].src);
	mmio_write32(regs + CH_BASE(c) + CH_DST, lli[0].dst);
	mmio_write32(regs + CH_BASE(c) + CH_LLI, lli[0].next);
	mmio_write32(regs + CH_BASE(c) + CH_CONTROL, lli[0].control);
	mmio_write32(regs + CH_BASE(c) + CH_CONFIG, CFG_E | CFG_IE | CFG_ITC);
	/*
	 * Harmless on the chip (the controller stays enabled); QEMU (7.2)
	 * updates its interrupt line only on a write to a global register,
	 * and a transfer it finished within the channel write above would
	 * otherwise never interrupt.
	 */
	mmio_write32(regs + DMAC_CONFIG, DMAC_CONFIG_E);
	if (!wait_for_completion_timeout(&chans[c].done, timeout)) {
		chan_stop(c);
		stats.timeouts++;
		ret = -ETIMEDOUT;
	} else {
		ret = chans[c].status;
	}
	dma_unmap_page(lli_dma, (size_t)n * sizeof(*lli), DMA_TO_DEVICE);
out_dst:
	dma_unmap_sg(dst, dst_nents, DMA_FROM_DEVICE);
out_src:
	dma_unmap_sg(src, src_nents, DMA_TO_DEVICE);
out_chan:
	pl080_release_chan(c);
	return ret;
}
