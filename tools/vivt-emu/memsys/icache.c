/*
 * The I-cache: virtually indexed and tagged, 4-way, 32-byte lines, filled
 * from physical memory only (never from the D-cache or the write buffer),
 * so code written through the D side must be cleaned, drained and the
 * I-cache invalidated before it runs.
 */
#include "memsys-int.h"

struct cline *ic_line(struct memsys *ms, uint32_t va, uint32_t pa)
{
	struct cache *c = &ms->ic;
	int li = cache_find(c, va);

	if (li < 0) {
		uint32_t set = (va / LINE_BYTES) & c->setmask;
		struct cline *l;
		size_t base;

		li = (int)(set * CACHE_WAYS + cache_victim(ms, c, set));
		l = &c->line[li];
		l->pa = pa & ~(LINE_BYTES - 1);
		base = word_index(ms, l->pa);
		for (unsigned w = 0; w < LINE_WORDS; w++)
			l->st[w] = ms->mem[base + w];
		l->ok_mask = 0;
		c->tag[li] = (va & ~(LINE_BYTES - 1)) | TAG_VALID;
		ms->code_pages[base / 1024 / 32] |= 1u << (base / 1024 % 32);
		ms->st.iline_fills++;
	}
	return &c->line[li];
}

static void invalidate_all(struct cache *c)
{
	for (unsigned li = 0; li < c->nsets * CACHE_WAYS; li++)
		c->tag[li] = 0;
}

/* c7,c5 (0 all, 1 by MVA, 2 by set/way), c7,c7,0's I half, and the
 * c7,c13,1 prefetch (a hint: modelled as doing nothing). */
void ic_op(struct memsys *ms, unsigned crm, unsigned opc2, uint32_t val, uint32_t pc)
{
	struct cache *c = &ms->ic;
	int li;

	(void)pc;
	if (crm == 7 || (crm == 5 && opc2 == 0)) {
		invalidate_all(c);
	} else if (crm == 5 && opc2 == 1) {
		li = cache_find(c, val);
		if (li >= 0)
			c->tag[li] = 0;
	} else if (crm == 5 && opc2 == 2) {
		c->tag[((val / LINE_BYTES) & c->setmask) * CACHE_WAYS + (val >> 30)] = 0;
	}
}
