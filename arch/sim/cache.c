/*
 * The ARM926EJ-S D-cache as the model keeps it: 4-way set-associative,
 * 32-byte lines, virtually indexed and tagged, each line remembering the
 * physical address it was filled from so a write-back (by a clean, or by an
 * eviction long after the PTE is gone) reaches the right frame. Size is set
 * with sim_set_dcache_size() (4 KiB to 128 KiB, as the ARM926 offers).
 *
 * Replacement: an invalid way first, else round-robin per set (the ARM926
 * offers round-robin or random). A line of a window is never chosen as the
 * victim for another line of the same window, so a whole page always fits.
 *
 * What is reported here: dropping a dirty line (a lost write), a write-back
 * that overwrites newer data another alias wrote back meanwhile (two aliases
 * dirty on one half line: the ARM926 writes back dirty halves only), and a
 * fill from memory while another alias holds newer, dirty data (a stale read).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model.h"

static unsigned int dcache_size = 16384;
static unsigned int nsets;
static struct cline *lines;             /* nsets * WAYS */
static unsigned int *victim;            /* per set: next round-robin way */

static void drop(struct cline *c)
{
	c->w->line[c->l] = NULL;
	c->w = NULL;
	c->stale = false;
	c->dma = false;
}

int sim_set_dcache_size(unsigned int bytes)
{
	if (bytes < PAGE_SIZE || bytes > 128 * 1024 || (bytes & (bytes - 1)))
		return -1;
	dcache_size = bytes;
	if (lines) {
		/* Empty the cache: windows must not keep pointers into the old one. */
		for (unsigned int i = 0; i < nsets * WAYS; i++)
			if (lines[i].w) {
				sim_close_window(lines[i].w);
				drop(&lines[i]);
			}
		free(lines);
		free(victim);
		lines = NULL;
		sim_cache_setup();
	}
	return 0;
}

unsigned int sim_dcache_size(void)
{
	return dcache_size;
}

void sim_cache_setup(void)
{
	nsets = dcache_size / (WAYS * LINE);
	lines = calloc(nsets * WAYS, sizeof(*lines));
	victim = calloc(nsets, sizeof(*victim));
	if (!lines || !victim)
		abort();
}

void sim_cache_reset(void)
{
	memset(lines, 0, nsets * WAYS * sizeof(*lines));
	memset(victim, 0, nsets * sizeof(*victim));
}

unsigned int sim_cache_lines(void)
{
	return nsets * WAYS;
}

struct cline *sim_cache_line(unsigned int i)
{
	return &lines[i];
}

uint8_t *sim_line_data(struct cline *c)
{
	return c->w->open ? (uint8_t *)c->w->va + c->l * LINE : c->data;
}

bool sim_line_dirty(struct cline *c)
{
	return c->w && memcmp(sim_line_data(c), c->clean, LINE) != 0;
}

void sim_memory_updated(const struct cline *src, phys_addr_t line_pa)
{
	const uint8_t *mem = sim_ram + line_pa;

	for (unsigned int i = 0; i < nsets * WAYS; i++) {
		struct cline *c = &lines[i];

		if (c == src || !c->w || c->pa != line_pa || c->stale)
			continue;
		if (memcmp(sim_line_data(c), mem, LINE) != 0) {
			sim_close_window(c->w);
			c->stale = true;
		}
	}
}

/*
 * The ARM926 keeps a dirty bit per half line (ARM926EJ-S TRM, DDI0198) and
 * writes back the dirty halves only: a half this alias never wrote cannot
 * clobber memory.
 */
#define HALF	(LINE / 2)

void sim_clean_line(struct cline *c)
{
	uint8_t *mem = sim_ram + c->pa, *d;
	unsigned int clobbered = 0;
	bool dirty[2];

	if (!sim_line_dirty(c))
		return;
	d = sim_line_data(c);
	for (unsigned int h = 0; h < 2; h++)
		dirty[h] = memcmp(d + h * HALF, c->clean + h * HALF, HALF) != 0;
	/* Bytes another alias wrote back since our fill, which ours would overwrite. */
	for (unsigned int i = 0; i < LINE; i++)
		clobbered += dirty[i / HALF] && mem[i] != c->clean[i] && d[i] != mem[i];
	if (clobbered && c->dma)
		sim_violation(SIM_DMA_CLOBBER, c->w, c->pa,
			      "invalidate of the buffer's lines at dma_map/unmap (no CPU write to them meanwhile)",
			      "write-back of line %u overwrites %u byte(s) a device wrote "
			      "after the line was filled", c->l, clobbered);
	else if (clobbered)
		sim_violation(SIM_WW_ALIAS, c->w, c->pa,
			      "clean+invalidate of one alias before the other is written",
			      "write-back of line %u overwrites %u byte(s) another alias wrote back "
			      "(two aliases were dirty on one physical line)", c->l, clobbered);
	for (unsigned int h = 0; h < 2; h++)
		if (dirty[h]) {
			memcpy(mem + h * HALF, d + h * HALF, HALF);
			memcpy(c->clean + h * HALF, d + h * HALF, HALF);
		}
	sim_model_stats.writebacks++;
	sim_memory_updated(c, c->pa);
}

void sim_invalidate_line(struct cline *c, const char *op)
{
	if (sim_line_dirty(c))
		sim_violation(SIM_LOST_WRITE, c->w, c->pa, "clean (c7,c10,1) before the invalidate",
			      "%s dropped dirty line %u", op, c->l);
	sim_close_window(c->w);
	drop(c);
}

void sim_discard_line(struct cline *c)
{
	sim_close_window(c->w);
	drop(c);
}

void sim_check_alias_newer(struct window *w, phys_addr_t line_pa)
{
	for (unsigned int i = 0; i < nsets * WAYS; i++) {
		struct cline *o = &lines[i];

		if (o->w && o->w != w && o->pa == line_pa && sim_line_dirty(o) &&
		    memcmp(sim_line_data(o), sim_ram + line_pa, LINE) != 0) {
			sim_violation(SIM_STALE_READ, w, line_pa,
				      "clean of the other alias before this access",
				      "line %u read from memory while %s %s %d (VA 0x%lx) holds newer data",
				      (unsigned int)((line_pa & (PAGE_SIZE - 1)) / LINE), o->w->kind,
				      o->w->cpu_pte ? "slot" : "pfn", o->w->slot, o->w->va + o->l * LINE);
			return;
		}
	}
}

void sim_dma_wrote(phys_addr_t line_pa)
{
	for (unsigned int i = 0; i < nsets * WAYS; i++) {
		struct cline *c = &lines[i];

		if (!c->w || c->pa != line_pa)
			continue;
		/* Even an equal value: the line predates the write (versions, not values). */
		sim_close_window(c->w);
		c->stale = true;
		c->dma = true;
	}
}

void sim_dma_check_read(phys_addr_t line_pa, unsigned int off, unsigned int len)
{
	for (unsigned int i = 0; i < nsets * WAYS; i++) {
		struct cline *c = &lines[i];

		if (c->w && c->pa == line_pa && sim_line_dirty(c) &&
		    memcmp(sim_line_data(c) + off, sim_ram + line_pa + off, len) != 0) {
			sim_violation(SIM_DMA_READ_DIRTY, c->w, line_pa,
				      "clean of the buffer's lines at dma_map (DMA_TO_DEVICE or BIDIRECTIONAL)",
				      "device read PA 0x%08lx..0x%08lx while line %u (VA 0x%lx) holds newer data",
				      (unsigned long)(line_pa + off), (unsigned long)(line_pa + off + len - 1),
				      c->l, c->w->va + c->l * LINE);
			return;
		}
	}
}

/* The way to (re)use in set s for a line of w. */
static struct cline *choose_victim(unsigned int s, const struct window *w)
{
	struct cline *set = &lines[s * WAYS];

	for (unsigned int k = 0; k < WAYS; k++)
		if (!set[k].w)
			return &set[k];
	for (unsigned int k = 0; k < WAYS; k++) {
		struct cline *c = &set[victim[s]];

		victim[s] = (victim[s] + 1) % WAYS;
		if (c->w != w && !c->w->stepping)
			return c;
	}
	fprintf(stderr, "sim cache: set %u holds only lines of one page\n", s);
	abort();
}

struct cline *sim_fill_line(struct window *w, unsigned int l, phys_addr_t pa)
{
	unsigned long va = w->va + l * LINE;
	struct cline *c = choose_victim((unsigned int)((va / LINE) % nsets), w);

	if (c->w) {
		/* Eviction: a dirty victim goes to its own PA, whatever its PTE says now. */
		sim_close_window(c->w);
		sim_clean_line(c);
		sim_model_stats.evictions++;
		drop(c);
	}
	sim_check_alias_newer(w, pa + l * LINE);
	c->w = w;
	c->l = l;
	c->pa = pa + l * LINE;
	c->stale = false;
	c->dma = false;
	memcpy(c->data, sim_ram + c->pa, LINE);
	memcpy(c->clean, c->data, LINE);
	w->line[l] = c;
	sim_model_stats.fills++;
	return c;
}
