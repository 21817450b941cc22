/*
 * DMA on the host model: the arch's cache operations for
 * firmware/mm/dma-mapping.c, and a bus master that reads and writes
 * physical memory behind the D-cache, with the oracle's three checks
 * (asm/sim.h: sim_dma_read, sim_dma_write).
 */
#include <stdlib.h>
#include <string.h>
#include <asm/cacheflush.h>
#include "model.h"

void dmac_clean_range(const void *start, size_t size)
{
	cpu_dcache_clean_area((void *)start, size);
	cpu_drain_write_buffer();
}

/*
 * A line wholly inside the range holds only the device's bytes: dropping it
 * dirty is what the DMA API means. A partial line dropped dirty loses the
 * CPU's neighbouring bytes: reported as a lost write.
 */
void dmac_inv_range(const void *start, size_t size)
{
	uintptr_t s = (uintptr_t)start, e = s + size;

	sim_sync_ptes();
	for (uintptr_t a = s & ~(uintptr_t)(LINE - 1); a < e; a += LINE) {
		struct window *w = sim_window_at(a);
		struct cline *c = w ? w->line[(a - w->va) / LINE] : NULL;

		if (!c)
			continue;
		if (a >= s && a + LINE <= e)
			sim_discard_line(c);
		else
			sim_invalidate_line(c, "DMA invalidate (c7,c6,1) of a partial line");
	}
	cpu_drain_write_buffer();
}

void dmac_flush_range(const void *start, size_t size)
{
	__cpuc_flush_dcache_area((void *)start, size);
}

/* Call fn on each line [pa, pa + len) touches, with the part of it touched. */
static void each_line(phys_addr_t pa, size_t len,
		      void (*fn)(phys_addr_t line_pa, unsigned int off, unsigned int n))
{
	while (len) {
		unsigned int off = pa % LINE;
		unsigned int n = LINE - off < len ? LINE - off : (unsigned int)len;

		fn(pa - off, off, n);
		pa += n;
		len -= n;
	}
}

static void wrote(phys_addr_t line_pa, unsigned int off, unsigned int n)
{
	(void)off;
	(void)n;
	sim_dma_wrote(line_pa);
}

static void check_ram(phys_addr_t pa, size_t len)
{
	if (pa >= RAM_SIZE || len > RAM_SIZE - pa)
		abort();        /* a test bug: the device has no such memory */
}

void sim_dma_read(phys_addr_t pa, void *buf, size_t len)
{
	check_ram(pa, len);
	sim_sync_ptes();
	each_line(pa, len, sim_dma_check_read);
	memcpy(buf, sim_ram + pa, len);
}

void sim_dma_write(phys_addr_t pa, const void *buf, size_t len)
{
	check_ram(pa, len);
	sim_sync_ptes();
	memcpy(sim_ram + pa, buf, len);
	each_line(pa, len, wrote);
}
