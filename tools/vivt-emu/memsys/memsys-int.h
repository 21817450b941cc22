/*
 * Inside the memory-system model: the state memsys.c, dcache.c, icache.c,
 * wbuf.c, tlb.c, walker.c and oracle.c share.  The machine never includes
 * this; it sees memsys.h only.
 *
 * Figures from the ARM926EJ-S TRM (DDI0198):
 *  - caches: 4-way, 8-word lines, two dirty bits per D line (half lines),
 *    PA tag kept per D line for write-back, allocate on read miss only;
 *  - write buffer: 16 data words and 4 addresses, plus a separate
 *    write-back buffer of 8 data words and 1 address for evicted or cleaned
 *    lines; both empty on c7,c10,4;
 *  - MMU: one unified TLB, 2-way set-associative main part of 2 x 32
 *    entries plus an 8-entry fully associative lockdown part that an
 *    invalidate-all leaves alone; the I and D variants of c8 act on it too.
 */
#ifndef VIVT_EMU_MEMSYS_INT_H
#define VIVT_EMU_MEMSYS_INT_H

#include <stddef.h>
#include "memsys.h"

#define LINE_BYTES	32u
#define LINE_WORDS	8u
#define CACHE_WAYS	4u
#define TAG_VALID	1u

#define WB_STORE_ADDRS	4u
#define WB_STORE_WORDS	16u
#define WB_SLOTS	(WB_STORE_ADDRS + 1u)	/* plus the write-back buffer */

#define TLB_SETS	32u
#define TLB_WAYS	2u
#define TLB_LOCKED	8u

/* Memory attributes from a descriptor's C and B bits (bits 3 and 2). */
#define ATTR_B		1u
#define ATTR_C		2u

#define SCTLR_M		(1u << 0)
#define SCTLR_C		(1u << 2)
#define SCTLR_I		(1u << 12)

/* One cache line's payload; its tag lives in a separate packed array. */
struct cline {
	uint32_t pa;		/* PA TAG RAM: where a write-back goes */
	uint8_t dirty;		/* bit 0: words 0-3, bit 1: words 4-7 */
	uint8_t ok_mask;	/* I only: words found current at ok_epoch */
	uint32_t ok_epoch;
	uint64_t st[LINE_WORDS];	/* version of each word the line holds */
};

/* A 4-way set-associative, virtually indexed and tagged line array. */
struct cache {
	uint32_t bytes, nsets, setmask;
	uint32_t *tag;		/* nsets * 4: (va & ~31) | TAG_VALID, or 0 */
	struct cline *line;
	uint8_t *rr;		/* round-robin victim per set */
	uint32_t ndirty;	/* D only: lines with a dirty bit set */
	uint32_t cursor;	/* D only: where test-and-clean looks next */
};

struct wb_entry {
	uint32_t pa, va, pc;	/* word-aligned PA; origin for reports */
	uint8_t nwords;
	bool writeback;		/* from an eviction or clean, not a store */
	uint64_t st[LINE_WORDS];
};

/* Both CPU-side buffers, retired strictly oldest first. */
struct wbuf {
	struct wb_entry e[WB_SLOTS];
	unsigned head, count;
	unsigned store_addrs, store_words, wb_addrs;
};

struct tlb_entry {
	uint32_t vbase, vmask, pbase;
	uint8_t attr;
	bool valid;
	bool changed;		/* a store hit a descriptor it was walked from */
	bool has_l2;
	uint32_t l1pa, l1val, l2pa, l2val;
};

/* An entry the main TLB lost to a walk that needed its way: a TLB with
 * another replacement history could still hold it, until a c8 covers it. */
struct tlb_ghost {
	uint32_t gen;		/* valid while equal to tlb.ghost_gen */
	struct tlb_entry e;
};

struct tlb {
	struct tlb_entry main[TLB_SETS * TLB_WAYS];
	struct tlb_entry locked[TLB_LOCKED];
	uint8_t rr[TLB_SETS];
	uint32_t lockdown;	/* c10: victim in 28:26, preserve in bit 0 */
	unsigned nlocked;	/* valid locked entries, to skip the search */
	uint32_t *watch;	/* one bit per RAM word: a descriptor walked since the last c8 of all */
	/* The nonzero words of watch, so that a c8 of all clears them, not
	 * RAM/32 bytes (4 MiB at 128 MiB, copied on write in each sweep run). */
	uint32_t *watched;
	size_t nwatched, watched_cap;
	bool watched_overflow;	/* the list could not grow: clear the whole map */
	/* Ghosts by page number: 1 MiB sections, 64 KiB large, 4 KiB small pages. */
	struct tlb_ghost *ghost[3];
	uint32_t ghost_gen;	/* bumped by a c8 of all: every ghost dies */
	bool outside_changed;	/* a walked descriptor was stored to: ms_tlb_changed() */
};

#define UTLB_SLOTS	64u

#define CAP_SLOTS	1024u
#define CAP_PER_SITE	3u

struct cap_slot {
	uint32_t pc;
	uint8_t kind;		/* MS_REPORT_KINDS + 1 marks an empty slot */
	uint32_t count;
};

struct memsys {
	struct ms_config cfg;
	uint32_t ram_end;		/* ram_base + ram_size, 0 on wrap to 4 GiB */
	uint64_t clock;			/* last version handed out */
	uint64_t *shadow;		/* newest write per RAM word */
	uint64_t *mem;			/* what physical memory holds */
	uint32_t *writer;		/* PC of the newest write per RAM word */
	uint32_t *dma_words;		/* one bit per RAM word: its newest write was a device's */
	uint32_t *code_pages;		/* one bit per RAM page the I-cache filled from */
	uint32_t code_epoch;		/* bumped by every store to such a page */
	size_t words;

	uint32_t sctlr, ttbr, dacr;
	struct cache dc, ic;
	struct wbuf wb;
	struct tlb tlb;
	/* Recently used TLB entries by page number, checked on every use:
	 * the model's shortcut, not the ARM926's micro-TLBs. */
	const struct tlb_entry *utlb_d[UTLB_SLOTS], *utlb_i[UTLB_SLOTS];
	uint32_t rng;

	struct ms_stats st;
	struct cap_slot cap[CAP_SLOTS];
	uint64_t suppressed;
	char detail[256];
};

/* ---- oracle.c ---- */
int oracle_init(struct memsys *ms);
void oracle_free(struct memsys *ms);
/* Hands a report to cfg->report (naming the PC of the newest store to
 * writer_pa) unless this kind at this PC was already
 * reported CAP_PER_SITE times; every detection is counted. */
void oracle_report(struct memsys *ms, enum ms_report_kind kind, uint32_t va,
		   uint32_t pa, uint32_t pc, uint32_t writer_pa, const char *fmt, ...)
	__attribute__((format(printf, 7, 8)));

static inline bool pa_in_ram(const struct memsys *ms, uint32_t pa)
{
	return pa - ms->cfg.ram_base < ms->cfg.ram_size;
}

static inline size_t word_index(const struct memsys *ms, uint32_t pa)
{
	return (pa - ms->cfg.ram_base) >> 2;
}

/* The newest write to word idx was a device's (ms_dma_write). */
static inline bool dma_word(const struct memsys *ms, size_t idx)
{
	return ms->dma_words[idx / 32] & (1u << (idx % 32));
}

uint32_t ms_random(struct memsys *ms);

/* ---- dcache.c (the line array is shared with icache.c) ---- */
int cache_init(struct cache *c, uint32_t bytes);
void cache_free(struct cache *c);
unsigned cache_victim(struct memsys *ms, struct cache *c, uint32_t set);

static inline int cache_find(const struct cache *c, uint32_t va)
{
	uint32_t set = (va / LINE_BYTES) & c->setmask;
	uint32_t want = (va & ~(LINE_BYTES - 1)) | TAG_VALID;
	const uint32_t *t = &c->tag[set * CACHE_WAYS];

	for (unsigned w = 0; w < CACHE_WAYS; w++)
		if (t[w] == want)
			return (int)(set * CACHE_WAYS + w);
	return -1;
}

/* Line index for va, filled from memory on a miss (read-allocate). */
unsigned dc_fill(struct memsys *ms, uint32_t va, uint32_t pa, uint32_t pc);
void dc_mark_dirty(struct memsys *ms, unsigned li, uint32_t va);
void dc_op(struct memsys *ms, unsigned crm, unsigned opc2, uint32_t val, uint32_t pc);
/* Test and clean (invalidate too when inval): true once nothing is dirty. */
bool dc_test_clean(struct memsys *ms, bool inval, uint32_t pc);

/* ---- icache.c ---- */
/* The I-cache line for va (PA pa), filled from memory on a miss.  Its PA
 * tag differs from pa's line when a stale mapping hit. */
struct cline *ic_line(struct memsys *ms, uint32_t va, uint32_t pa);
void ic_op(struct memsys *ms, unsigned crm, unsigned opc2, uint32_t val, uint32_t pc);

/* ---- wbuf.c ---- */
void wb_push_store(struct memsys *ms, uint32_t pa, uint64_t st, uint32_t va, uint32_t pc);
void wb_push_line(struct memsys *ms, const struct cline *l, uint32_t va, uint32_t pc);
/* The version of the newest pending write to the word at pa, if any. */
bool wb_pending(const struct memsys *ms, uint32_t pa, uint64_t *st);
/* Whether a pending entry overlaps [pa, pa + len). */
bool wb_overlaps(const struct memsys *ms, uint32_t pa, uint32_t len);
void wb_drain(struct memsys *ms);

/* ---- tlb.c and walker.c ---- */
enum xlate { XL_RAM, XL_DEVICE, XL_FAULT };
/* The TLB entry for va, walking the tables on a miss and reporting a use
 * of an entry whose descriptor changed; NULL on a translation fault. */
const struct tlb_entry *tlb_lookup_slow(struct memsys *ms, uint32_t va, uint32_t pc);
void tlb_op(struct memsys *ms, unsigned crm, unsigned opc2, uint32_t val);
/* A store to pa: marks the entries walked from a descriptor there. */
void tlb_store_hook(struct memsys *ms, uint32_t pa);
int tlb_init(struct memsys *ms);
void tlb_free(struct memsys *ms);
/* Walks the tables for va into *e; false on a translation fault. */
bool walk(struct memsys *ms, uint32_t va, uint32_t pc, struct tlb_entry *e);

static inline bool tlb_watched(const struct memsys *ms, size_t idx)
{
	return ms->tlb.watch[idx / 32] & (1u << (idx % 32));
}

static inline bool tlb_entry_hit(const struct tlb_entry *e, uint32_t va)
{
	return e && e->valid && !e->changed && (va & e->vmask) == e->vbase;
}

#endif
