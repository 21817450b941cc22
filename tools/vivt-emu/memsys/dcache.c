/*
 * The D-cache: virtually indexed and tagged, 4-way, 32-byte lines,
 * allocated on read misses only.  Each line keeps the PA it was filled from
 * (the ARM926's PA TAG RAM) and two dirty bits; a write-back sends the dirty
 * halves to that PA through the write-back buffer.  Invalidates check that
 * they do not drop the only copy of the newest write.
 *
 * The line array itself (cache_*) is shared with the I-cache.
 */
#include <stdlib.h>
#include "memsys-int.h"

int cache_init(struct cache *c, uint32_t bytes)
{
	c->bytes = bytes;
	c->nsets = bytes / (LINE_BYTES * CACHE_WAYS);
	c->setmask = c->nsets - 1;
	c->tag = calloc((size_t)c->nsets * CACHE_WAYS, sizeof(*c->tag));
	c->line = calloc((size_t)c->nsets * CACHE_WAYS, sizeof(*c->line));
	c->rr = calloc(c->nsets, 1);
	c->ndirty = 0;
	c->cursor = 0;
	return c->tag && c->line && c->rr ? 0 : -1;
}

void cache_free(struct cache *c)
{
	free(c->tag);
	free(c->line);
	free(c->rr);
}

unsigned cache_victim(struct memsys *ms, struct cache *c, uint32_t set)
{
	if (ms->cfg.repl == MS_REPL_RANDOM)
		return ms_random(ms) % CACHE_WAYS;
	return c->rr[set]++ % CACHE_WAYS;
}

static uint32_t line_va(const struct cache *c, unsigned li)
{
	return c->tag[li] & ~(LINE_BYTES - 1);
}

static void writeback(struct memsys *ms, unsigned li, uint32_t pc)
{
	struct cline *l = &ms->dc.line[li];

	if (!l->dirty)
		return;
	wb_push_line(ms, l, line_va(&ms->dc, li), pc);
	ms->st.dwritebacks++;
	l->dirty = 0;
	ms->dc.ndirty--;
}

/* Whether another D line holds the same dirty version of the word. */
static bool alias_holds(const struct memsys *ms, unsigned li, unsigned w, uint64_t st)
{
	const struct cache *c = &ms->dc;
	uint32_t pa = c->line[li].pa;

	for (unsigned j = 0; j < c->nsets * CACHE_WAYS; j++) {
		const struct cline *o = &c->line[j];

		if (j != li && (c->tag[j] & TAG_VALID) && o->pa == pa &&
		    (o->dirty & (w < LINE_WORDS / 2 ? 1 : 2)) && o->st[w] == st)
			return true;
	}
	return false;
}

/* Invalidates a line; dirty data that is the newest copy nowhere else is a
 * lost write.  check_aliases is false when every line goes at once. */
static void drop(struct memsys *ms, unsigned li, uint32_t pc, bool check_aliases)
{
	struct cache *c = &ms->dc;
	struct cline *l = &c->line[li];
	size_t base = word_index(ms, l->pa);

	for (unsigned w = 0; w < LINE_WORDS && l->dirty; w++) {
		uint64_t s = l->st[w], pend;

		if (!(l->dirty & (w < LINE_WORDS / 2 ? 1 : 2)))
			continue;
		if (s != ms->shadow[base + w] || s == ms->mem[base + w])
			continue;
		if (wb_pending(ms, l->pa + 4 * w, &pend) && pend == s)
			continue;
		if (check_aliases && alias_holds(ms, li, w, s))
			continue;
		oracle_report(ms, MS_LOST_WRITE_INVAL, line_va(c, li) + 4 * w, l->pa + 4 * w, pc,
			      l->pa + 4 * w,
			      "invalidate drops a dirty line holding the newest write (version %llu, "
			      "PC 0x%08x); memory has version %llu",
			      (unsigned long long)s, ms->writer[base + w],
			      (unsigned long long)ms->mem[base + w]);
		break;
	}
	if (l->dirty)
		c->ndirty--;
	l->dirty = 0;
	c->tag[li] = 0;
}

unsigned dc_fill(struct memsys *ms, uint32_t va, uint32_t pa, uint32_t pc)
{
	struct cache *c = &ms->dc;
	uint32_t set = (va / LINE_BYTES) & c->setmask;
	unsigned li = set * CACHE_WAYS + cache_victim(ms, c, set);
	struct cline *l = &c->line[li];
	size_t base;

	if (c->tag[li] & TAG_VALID) {
		ms->st.devictions++;
		writeback(ms, li, pc);
	}
	l->pa = pa & ~(LINE_BYTES - 1);
	/* A linefill must not overtake a pending write to the same line. */
	if (ms->wb.count && wb_overlaps(ms, l->pa, LINE_BYTES))
		wb_drain(ms);
	base = word_index(ms, l->pa);
	for (unsigned w = 0; w < LINE_WORDS; w++)
		l->st[w] = ms->mem[base + w];
	l->dirty = 0;
	c->tag[li] = (va & ~(LINE_BYTES - 1)) | TAG_VALID;
	ms->st.dline_fills++;
	return li;
}

void dc_mark_dirty(struct memsys *ms, unsigned li, uint32_t va)
{
	struct cline *l = &ms->dc.line[li];

	if (!l->dirty)
		ms->dc.ndirty++;
	l->dirty |= (va & (LINE_BYTES / 2)) ? 2 : 1;
}

static void invalidate_all(struct memsys *ms, uint32_t pc)
{
	struct cache *c = &ms->dc;

	for (unsigned li = 0; li < c->nsets * CACHE_WAYS; li++)
		if (c->tag[li] & TAG_VALID)
			drop(ms, li, pc, false);
}

/* c7 operations on the D-cache alone: CRm 6 (invalidate), 10 (clean),
 * 14 (clean and invalidate); opc2 0 whole cache, 1 by MVA, 2 by set/way. */
void dc_op(struct memsys *ms, unsigned crm, unsigned opc2, uint32_t val, uint32_t pc)
{
	struct cache *c = &ms->dc;
	int li;

	if (opc2 == 0) {
		if (crm == 6)
			invalidate_all(ms, pc);
		return;
	}
	if (opc2 == 1) {
		li = cache_find(c, val);
	} else if (opc2 == 2) {
		/* ARM926 set/way format: way in bits 31:30, set from bit 5. */
		li = (int)(((val / LINE_BYTES) & c->setmask) * CACHE_WAYS + (val >> 30));
		if (!(c->tag[li] & TAG_VALID))
			li = -1;
	} else {
		return;
	}
	if (li < 0)
		return;
	if (crm == 6) {
		drop(ms, (unsigned)li, pc, true);
	} else if (crm == 10) {
		writeback(ms, (unsigned)li, pc);
	} else if (crm == 14) {
		writeback(ms, (unsigned)li, pc);
		c->tag[li] = 0;
	}
}

bool dc_test_clean(struct memsys *ms, bool inval, uint32_t pc)
{
	struct cache *c = &ms->dc;
	unsigned n = c->nsets * CACHE_WAYS;

	if (c->ndirty) {
		for (unsigned i = 0; i < n; i++) {
			unsigned li = (c->cursor + i) % n;

			if (c->line[li].dirty) {
				writeback(ms, li, pc);
				c->cursor = (li + 1) % n;
				return false;
			}
		}
	}
	/* TRM: the test-clean-invalidate form invalidates the whole cache
	 * once it finds nothing dirty. */
	if (inval)
		invalidate_all(ms, pc);
	return true;
}
