/*
 * memsys.h implemented: configuration, the per-access paths (translate,
 * then D-cache, write buffer or memory, then compare with the shadow) and
 * the CP15 dispatch.  The load and fetch hit paths allocate nothing and
 * divide by nothing but powers of two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memsys-int.h"

/* One half of the ARM926 cache type register (D in bits 23:12, I in
 * 11:0): size in 9:6 (512 << size bytes), associativity 5:3 (2 = 4-way),
 * M in 2, line length 1:0 (2 = 8 words); bit 24 says the caches are
 * separate.  Only 4-way, 8-word-line separate caches are modelled. */
static int size_from_ctype(uint32_t ctype, unsigned shift, const char *which, uint32_t *bytes)
{
	uint32_t f = (ctype >> shift) & 0xfff;
	unsigned size = (f >> 6) & 15, assoc = (f >> 3) & 7, m = (f >> 2) & 1, len = f & 3;

	if (!(ctype & (1u << 24)) || m || assoc != 2 || len != 2 || size < 3 || size > 8) {
		fprintf(stderr,
			"vivt-emu: memsys: cache type 0x%08x: its %s field 0x%03x is not a separate "
			"4-way cache of 4-128 KiB with 32-byte lines, the only kind modelled\n",
			ctype, which, f);
		return -1;
	}
	*bytes = 512u << size;
	return 0;
}

static int check_override(uint32_t bytes, const char *which)
{
	if (bytes < 1024 || bytes > (16u << 20) || (bytes & (bytes - 1))) {
		fprintf(stderr,
			"vivt-emu: memsys: %s cache size %u bytes: need a power of two from 1 KiB to 16 MiB\n",
			which, bytes);
		return -1;
	}
	return 0;
}

static int check_config(const struct ms_config *cfg, uint32_t *dbytes, uint32_t *ibytes)
{
	if (!cfg->ram || !cfg->ram_size || cfg->ram_size > (256u << 20) ||
	    (cfg->ram_size | cfg->ram_base) % 4096 ||
	    (uint64_t)cfg->ram_base + cfg->ram_size > (1ull << 32)) {
		fprintf(stderr,
			"vivt-emu: memsys: RAM at 0x%08x, %u bytes: need a buffer of 4 KiB pages, "
			"at most 256 MiB, page-aligned and below 4 GiB\n",
			cfg->ram_base, cfg->ram_size);
		return -1;
	}
	if (cfg->dcache_bytes) {
		if (check_override(cfg->dcache_bytes, "D"))
			return -1;
		*dbytes = cfg->dcache_bytes;
	} else if (size_from_ctype(cfg->ctype, 12, "D", dbytes)) {
		return -1;
	}
	if (cfg->icache_bytes) {
		if (check_override(cfg->icache_bytes, "I"))
			return -1;
		*ibytes = cfg->icache_bytes;
	} else if (size_from_ctype(cfg->ctype, 0, "I", ibytes)) {
		return -1;
	}
	if (cfg->repl != MS_REPL_ROUND_ROBIN && cfg->repl != MS_REPL_RANDOM) {
		fprintf(stderr, "vivt-emu: memsys: unknown replacement policy %d\n", (int)cfg->repl);
		return -1;
	}
	return 0;
}

struct memsys *ms_new(const struct ms_config *cfg)
{
	uint32_t dbytes, ibytes;
	struct memsys *ms;

	if (!cfg || check_config(cfg, &dbytes, &ibytes))
		return NULL;
	ms = calloc(1, sizeof(*ms));
	if (!ms)
		return NULL;
	ms->cfg = *cfg;
	ms->rng = cfg->seed ? cfg->seed : 0x9e3779b9u;
	if (oracle_init(ms) || cache_init(&ms->dc, dbytes) || cache_init(&ms->ic, ibytes) ||
	    tlb_init(ms)) {
		fprintf(stderr, "vivt-emu: memsys: out of memory\n");
		ms_free(ms);
		return NULL;
	}
	return ms;
}

void ms_free(struct memsys *ms)
{
	if (!ms)
		return;
	cache_free(&ms->dc);
	cache_free(&ms->ic);
	tlb_free(ms);
	oracle_free(ms);
	free(ms);
}

static inline enum xlate xlate(struct memsys *ms, const struct tlb_entry **utlb, uint32_t va,
			       uint32_t pc, uint32_t *pa, unsigned *attr)
{
	const struct tlb_entry *e, **last = &utlb[(va >> 12) % UTLB_SLOTS];

	if (!(ms->sctlr & SCTLR_M)) {
		/* MMU off: flat, and every data access strongly ordered. */
		*pa = va;
		*attr = 0;
	} else {
		e = *last;
		if (__builtin_expect(!tlb_entry_hit(e, va), 0)) {
			e = tlb_lookup_slow(ms, va, pc);
			if (!e)
				return XL_FAULT;
			*last = e;
		}
		*pa = e->pbase | (va & ~e->vmask);
		*attr = e->attr;
	}
	return pa_in_ram(ms, *pa) ? XL_RAM : XL_DEVICE;
}

static inline bool dcache_on(const struct memsys *ms, unsigned attr)
{
	return (attr & ATTR_C) && (ms->sctlr & (SCTLR_C | SCTLR_M)) == (SCTLR_C | SCTLR_M);
}

static void stale_read(struct memsys *ms, uint32_t va, uint32_t pa, uint32_t pc, uint64_t got,
		       const char *from, uint32_t from_pa)
{
	size_t idx = word_index(ms, pa);

	if (from_pa == (pa & ~(LINE_BYTES - 1)) && dma_word(ms, idx))
		oracle_report(ms, MS_DMA_STALE_LINE, va, pa, pc, pa,
			      "load returns version %llu from %s; a device wrote version %llu "
			      "since (transfer started at PC 0x%08x): no invalidate after the "
			      "transfer", (unsigned long long)got, from,
			      (unsigned long long)ms->shadow[idx], ms->writer[idx]);
	else if (from_pa != (pa & ~(LINE_BYTES - 1)))
		oracle_report(ms, MS_STALE_READ, va, pa, pc, pa,
			      "load hits a D-cache line still holding PA 0x%08x: VA remapped "
			      "without a flush", from_pa);
	else
		oracle_report(ms, MS_STALE_READ, va, pa, pc, pa,
			      "load returns version %llu from %s; the newest write is version %llu "
			      "(PC 0x%08x)",
			      (unsigned long long)got, from, (unsigned long long)ms->shadow[idx],
			      ms->writer[idx]);
}

static void load_word(struct memsys *ms, uint32_t va, uint32_t pa, unsigned attr, uint32_t pc)
{
	size_t idx = word_index(ms, pa);
	uint64_t got;

	if (dcache_on(ms, attr)) {
		int li = cache_find(&ms->dc, va);
		const struct cline *l;

		if (li < 0)
			li = (int)dc_fill(ms, va, pa, pc);
		l = &ms->dc.line[li];
		got = l->st[(va / 4) % LINE_WORDS];
		if (__builtin_expect(got == ms->shadow[idx] && l->pa == (pa & ~(LINE_BYTES - 1)), 1))
			return;
		stale_read(ms, va, pa, pc, got, "the D-cache", l->pa);
		return;
	}
	if (!attr && ms->wb.count)
		wb_drain(ms);	/* strongly ordered: waits for the buffer */
	if (!ms->wb.count || !wb_pending(ms, pa, &got))
		got = ms->mem[idx];
	if (got != ms->shadow[idx])
		stale_read(ms, va, pa, pc, got, "memory", pa & ~(LINE_BYTES - 1));
}

/* Word idx (at pa) got a new newest version: code and table watchers hear of it. */
static void word_written(struct memsys *ms, size_t idx, uint32_t pa)
{
	if (ms->code_pages[idx / 1024 / 32] & (1u << (idx / 1024 % 32)))
		ms->code_epoch++;
	if (tlb_watched(ms, idx))
		tlb_store_hook(ms, pa);
}

static void store_word(struct memsys *ms, uint32_t va, uint32_t pa, unsigned attr, uint32_t pc)
{
	size_t idx = word_index(ms, pa);
	uint64_t st = ++ms->clock;

	ms->shadow[idx] = st;
	ms->writer[idx] = pc;
	ms->dma_words[idx / 32] &= ~(1u << (idx % 32));
	word_written(ms, idx, pa);
	if (dcache_on(ms, attr)) {
		int li = cache_find(&ms->dc, va);

		if (li >= 0) {
			struct cline *l = &ms->dc.line[li];

			if (l->pa != (pa & ~(LINE_BYTES - 1)))
				oracle_report(ms, MS_LOST_WRITE_WB, va, pa, pc, pa,
					      "store hits a D-cache line still holding PA 0x%08x: VA "
					      "remapped without a flush; the data goes to the old page",
					      l->pa);
			l->st[(va / 4) % LINE_WORDS] = st;
			if (attr & ATTR_B) {
				dc_mark_dirty(ms, (unsigned)li, va);
				return;
			}
		}
		wb_push_store(ms, pa, st, va, pc);	/* write miss or write-through */
		return;
	}
	if (attr) {
		wb_push_store(ms, pa, st, va, pc);
		return;
	}
	if (ms->wb.count)
		wb_drain(ms);
	ms->mem[idx] = st;
}

static void stale_fetch(struct memsys *ms, uint32_t va, uint32_t pa, uint32_t pc, uint64_t got,
			bool cached, bool same_pa)
{
	size_t idx = word_index(ms, pa);

	oracle_report(ms, MS_STALE_IFETCH, va, pa, pc, pa,
		      "executes version %llu from %s; the newest write is version %llu (PC 0x%08x)%s",
		      (unsigned long long)got, cached ? "the I-cache" : "memory",
		      (unsigned long long)ms->shadow[idx], ms->writer[idx],
		      same_pa ? "" : "; the I-cache line belongs to another PA");
}

/* Fetches of the words [va, va + 4 * n) of one line, translated to pa. */
static void fetch_line(struct memsys *ms, uint32_t va, uint32_t pa, unsigned attr, unsigned n,
		       uint32_t pc)
{
	const uint64_t *shadow = &ms->shadow[word_index(ms, pa)];
	bool cached = (ms->sctlr & SCTLR_I) && (!(ms->sctlr & SCTLR_M) || (attr & ATTR_C));

	if (cached) {
		struct cline *l = ic_line(ms, va, pa);
		const uint64_t *got = &l->st[(va / 4) % LINE_WORDS];
		bool same_pa = l->pa == (pa & ~(LINE_BYTES - 1)), ok = same_pa;
		unsigned need = ((1u << n) - 1) << ((va / 4) % LINE_WORDS);

		/* Words already found current stay so until a store to a page
		 * the I-cache reads from (which bumps code_epoch). */
		if (same_pa && l->ok_epoch == ms->code_epoch && (l->ok_mask & need) == need)
			return;
		for (unsigned k = 0; k < n; k++) {
			if (__builtin_expect(got[k] != shadow[k] || !same_pa, 0)) {
				stale_fetch(ms, va + 4 * k, pa + 4 * k, pc, got[k], true, same_pa);
				ok = false;
			}
		}
		if (ok) {
			if (l->ok_epoch != ms->code_epoch)
				l->ok_mask = 0;
			l->ok_epoch = ms->code_epoch;
			l->ok_mask |= (uint8_t)need;
		}
	} else {
		const uint64_t *got = &ms->mem[word_index(ms, pa)];

		for (unsigned k = 0; k < n; k++)
			if (got[k] != shadow[k])
				stale_fetch(ms, va + 4 * k, pa + 4 * k, pc, got[k], false, true);
	}
}

typedef void (*word_fn)(struct memsys *, uint32_t, uint32_t, unsigned, uint32_t);

static inline void each_word(struct memsys *ms, const struct tlb_entry **utlb, uint32_t va,
			     unsigned size, uint32_t pc, word_fn fn)
{
	uint64_t end = (uint64_t)va + (size ? size : 1), w = va & ~3u;

	do {
		uint32_t pa;
		unsigned attr;
		enum xlate x = xlate(ms, utlb, (uint32_t)w, pc, &pa, &attr);

		if (x == XL_RAM)
			fn(ms, (uint32_t)w, pa & ~3u, attr, pc);
		else if (x == XL_DEVICE && !attr && ms->wb.count)
			wb_drain(ms);	/* strongly ordered device access */
		w += 4;
	} while (w < end);
}

void ms_load(struct memsys *ms, uint32_t va, unsigned size, uint32_t pc)
{
	ms->st.loads++;
	each_word(ms, ms->utlb_d, va, size, pc, load_word);
}

void ms_store(struct memsys *ms, uint32_t va, unsigned size, uint32_t pc)
{
	ms->st.stores++;
	each_word(ms, ms->utlb_d, va, size, pc, store_word);
}

void ms_fetch(struct memsys *ms, uint32_t va, unsigned size, uint32_t pc)
{
	uint64_t w = va & ~3u, end = (uint64_t)va + (size ? size : 1);

	ms->st.fetches++;
	/* One translation and one I-cache lookup per line, not per word. */
	while (w < end) {
		uint64_t next = (w | (LINE_BYTES - 1)) + 1;
		uint32_t pa;
		unsigned attr;

		if (next > end)
			next = (end + 3) & ~3ull;
		if (xlate(ms, ms->utlb_i, (uint32_t)w, pc, &pa, &attr) == XL_RAM)
			fetch_line(ms, (uint32_t)w, pa & ~3u, attr, (unsigned)(next - w) / 4, pc);
		w = next;
	}
}

static void debug_read_word(struct memsys *ms, uint32_t va, uint32_t pa, unsigned attr, uint32_t pc)
{
	size_t idx = word_index(ms, pa);
	uint64_t pend;

	(void)attr;
	if (ms->mem[idx] == ms->shadow[idx])
		return;
	oracle_report(ms, MS_STALE_READ, va, pa, pc, pa,
		      "the debugger reads memory, whose version %llu is older than the newest "
		      "write (version %llu, PC 0x%08x) %s",
		      (unsigned long long)ms->mem[idx], (unsigned long long)ms->shadow[idx],
		      ms->writer[idx],
		      wb_pending(ms, pa, &pend) && pend == ms->shadow[idx]
			      ? "still in the write buffer: no drain before the call"
			      : "not cleaned from the D-cache before the call");
}

void ms_debug_read(struct memsys *ms, uint32_t va, unsigned size, uint32_t pc)
{
	each_word(ms, ms->utlb_d, va, size, pc, debug_read_word);
}

void ms_dma_read(struct memsys *ms, uint32_t pa, uint32_t size, uint32_t pc)
{
	for (uint32_t a = pa & ~3u; a - (pa & ~3u) < size; a += 4) {
		size_t idx;
		uint64_t pend;

		if (!pa_in_ram(ms, a))
			continue;
		idx = word_index(ms, a);
		if (ms->mem[idx] == ms->shadow[idx])
			continue;
		oracle_report(ms, MS_DMA_STALE_MEMORY, a, a, pc, a,
			      "a device reads memory version %llu; the newest write is version %llu "
			      "(PC 0x%08x), %s", (unsigned long long)ms->mem[idx],
			      (unsigned long long)ms->shadow[idx], ms->writer[idx],
			      wb_pending(ms, a, &pend) && pend == ms->shadow[idx]
				      ? "still in the write buffer: no drain before the transfer"
				      : "still in a dirty D-cache line: no clean before the transfer");
	}
}

void ms_dma_write(struct memsys *ms, uint32_t pa, uint32_t size, uint32_t pc)
{
	for (uint32_t a = pa & ~3u; a - (pa & ~3u) < size; a += 4) {
		size_t idx;

		if (!pa_in_ram(ms, a))
			continue;
		idx = word_index(ms, a);
		ms->shadow[idx] = ms->mem[idx] = ++ms->clock;
		ms->writer[idx] = pc;
		ms->dma_words[idx / 32] |= 1u << (idx % 32);
		word_written(ms, idx, a);
	}
}

void ms_cp15_write(struct memsys *ms, unsigned crn, unsigned opc1, unsigned crm, unsigned opc2,
		   uint32_t val, uint32_t pc)
{
	ms->st.cp15_ops++;
	if (opc1 != 0)
		return;
	switch (crn) {
	case 1:
		if (crm == 0 && opc2 == 0)
			ms->sctlr = val;
		break;
	case 2:
		if (crm == 0 && opc2 == 0)
			ms->ttbr = val;
		break;
	case 3:
		if (crm == 0 && opc2 == 0)
			ms->dacr = val;
		break;
	case 7:
		if (crm == 5 || crm == 13) {
			ic_op(ms, crm, opc2, val, pc);
		} else if (crm == 7 && opc2 == 0) {
			ic_op(ms, crm, opc2, val, pc);
			dc_op(ms, 6, 0, val, pc);
		} else if (crm == 10 && opc2 == 4) {
			ms->st.wb_drains++;
			wb_drain(ms);
		} else if (crm == 6 || crm == 10 || crm == 14) {
			dc_op(ms, crm, opc2, val, pc);
		}
		break;
	case 8:
		tlb_op(ms, crm, opc2, val);
		break;
	case 10:
		if (crm == 0 && opc2 == 0)
			ms->tlb.lockdown = val;
		break;
	default:
		break;
	}
}

bool ms_cp15_read(struct memsys *ms, unsigned crn, unsigned opc1, unsigned crm, unsigned opc2,
		  uint32_t pc, uint32_t *val)
{
	if (crn != 7 || opc1 != 0 || opc2 != 3 || (crm != 10 && crm != 14))
		return false;
	ms->st.cp15_ops++;
	*val = dc_test_clean(ms, crm == 14, pc) ? 1u << 30 : 0;
	return true;
}

void ms_get_stats(const struct memsys *ms, struct ms_stats *out)
{
	*out = ms->st;
}

void ms_stats_reset(struct memsys *ms)
{
	memset(&ms->st, 0, sizeof(ms->st));
}
