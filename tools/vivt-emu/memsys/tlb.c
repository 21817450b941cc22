/*
 * The unified TLB: a 2-way main part of 32 sets and an 8-entry lockdown
 * part.  Entries stay until a c8 invalidate or until a walk needs their way
 * (seeded random or round-robin); SCTLR and TTBR writes leave them alone,
 * as on the ARM926.  Each entry remembers the descriptor words it was
 * walked from; a store to one of them marks it, and its next use while the
 * descriptor differs is a stale-TLB report.
 *
 * Which entry a walk evicts is the model's choice, not the silicon's: an
 * entry evicted here could still be held by an ARM926 whose replacement
 * went otherwise.  So an evicted entry stays as a ghost until a c8 covers
 * it, and a walk that finds a ghost whose descriptor has changed since is a
 * stale-TLB report too.  The verdict then never rests on the replacement,
 * nor on the machine's own translation cache, which ms_tlb_changed() keeps
 * coherent with the tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memsys-int.h"

/* Page-number shift of each ghost array: sections, large pages, small pages. */
static const unsigned ghost_shift[3] = { 20, 16, 12 };

int tlb_init(struct memsys *ms)
{
	ms->tlb.watch = calloc(ms->words / 32 + 1, sizeof(uint32_t));
	for (unsigned k = 0; k < 3; k++)
		ms->tlb.ghost[k] = calloc((size_t)1 << (32 - ghost_shift[k]), sizeof(struct tlb_ghost));
	ms->tlb.ghost_gen = 1;
	return ms->tlb.watch && ms->tlb.ghost[0] && ms->tlb.ghost[1] && ms->tlb.ghost[2] ? 0 : -1;
}

void tlb_free(struct memsys *ms)
{
	free(ms->tlb.watch);
	free(ms->tlb.watched);
	for (unsigned k = 0; k < 3; k++)
		free(ms->tlb.ghost[k]);
}

static unsigned ghost_kind(uint32_t vmask)
{
	return vmask == 0xfff00000u ? 0 : vmask == 0xffff0000u ? 1 : 2;
}

static void ghost_put(struct tlb *t, const struct tlb_entry *e)
{
	unsigned k = ghost_kind(e->vmask);
	struct tlb_ghost *g = &t->ghost[k][e->vbase >> ghost_shift[k]];

	g->gen = t->ghost_gen;
	g->e = *e;
}

/* c8 by MVA: no TLB can hold an entry covering va any more. */
static void ghost_drop(struct tlb *t, uint32_t va)
{
	for (unsigned k = 0; k < 3; k++)
		t->ghost[k][va >> ghost_shift[k]].gen = 0;
}

/* Sections, large and small pages each index the main TLB by their own
 * page number, so one entry serves its whole page. */
static unsigned set_for(uint32_t vmask, uint32_t va)
{
	if (vmask == 0xfff00000u)
		return (va >> 20) % TLB_SETS;
	if (vmask == 0xffff0000u)
		return (va >> 16) % TLB_SETS;
	return (va >> 12) % TLB_SETS;
}

static bool covers(const struct tlb_entry *e, uint32_t va)
{
	return e->valid && (va & e->vmask) == e->vbase;
}

static struct tlb_entry *lookup(struct tlb *t, uint32_t va)
{
	static const uint32_t masks[] = { 0xfffff000u, 0xfff00000u, 0xffff0000u };

	for (unsigned m = 0; m < 3; m++) {
		struct tlb_entry *s = &t->main[set_for(masks[m], va) * TLB_WAYS];

		for (unsigned w = 0; w < TLB_WAYS; w++)
			if (covers(&s[w], va))
				return &s[w];
	}
	for (unsigned i = 0; t->nlocked && i < TLB_LOCKED; i++)
		if (covers(&t->locked[i], va))
			return &t->locked[i];
	return NULL;
}

static void watch(struct memsys *ms, uint32_t pa)
{
	struct tlb *t = &ms->tlb;
	size_t idx, w;

	if (!pa_in_ram(ms, pa))
		return;
	idx = word_index(ms, pa);
	w = idx / 32;
	if (!t->watch[w] && !t->watched_overflow) {
		if (t->nwatched == t->watched_cap) {
			size_t cap = t->watched_cap ? 2 * t->watched_cap : 256;
			uint32_t *n = realloc(t->watched, cap * sizeof(*n));

			if (n) {
				t->watched = n;
				t->watched_cap = cap;
			}
		}
		if (t->nwatched < t->watched_cap)
			t->watched[t->nwatched++] = (uint32_t)w;
		else
			t->watched_overflow = true;
	}
	t->watch[w] |= 1u << (idx % 32);
}

/* Every watch bit off (a c8 of all). */
static void unwatch_all(struct memsys *ms)
{
	struct tlb *t = &ms->tlb;

	if (t->watched_overflow)
		memset(t->watch, 0, (ms->words / 32 + 1) * sizeof(uint32_t));
	else
		for (size_t i = 0; i < t->nwatched; i++)
			t->watch[t->watched[i]] = 0;
	t->nwatched = 0;
	t->watched_overflow = false;
}

static void count_locked(struct tlb *t)
{
	t->nlocked = 0;
	for (unsigned i = 0; i < TLB_LOCKED; i++)
		t->nlocked += t->locked[i].valid;
}

static struct tlb_entry *insert(struct memsys *ms, const struct tlb_entry *n, uint32_t va)
{
	struct tlb *t = &ms->tlb;
	struct tlb_entry *e;

	if (t->lockdown & 1) {
		e = &t->locked[(t->lockdown >> 26) & 7];
	} else {
		unsigned set = set_for(n->vmask, va);
		struct tlb_entry *s = &t->main[set * TLB_WAYS];
		unsigned way;

		if (!s[0].valid)
			way = 0;
		else if (!s[1].valid)
			way = 1;
		else if (ms->cfg.repl == MS_REPL_RANDOM)
			way = ms_random(ms) % TLB_WAYS;
		else
			way = t->rr[set]++ % TLB_WAYS;
		e = &s[way];
		if (e->valid)
			ghost_put(t, e);
	}
	*e = *n;
	watch(ms, n->l1pa);
	if (n->has_l2)
		watch(ms, n->l2pa);
	count_locked(t);
	return e;
}

static uint32_t ram_word(const struct memsys *ms, uint32_t pa)
{
	uint32_t v = 0;

	if (pa_in_ram(ms, pa))
		memcpy(&v, ms->cfg.ram + (pa - ms->cfg.ram_base), 4);
	return v;
}

/* The first descriptor e was walked from that now differs from what the
 * walk read (false if none: rewriting the same value needs no c8). */
static bool descriptor_changed(const struct memsys *ms, const struct tlb_entry *e,
			       uint32_t *dpa, uint32_t *was, uint32_t *now, const char **level)
{
	*dpa = e->l1pa;
	*was = e->l1val;
	*now = ram_word(ms, e->l1pa);
	*level = "L1";
	if (*now == *was && e->has_l2) {
		*dpa = e->l2pa;
		*was = e->l2val;
		*now = ram_word(ms, *dpa);
		*level = "L2";
	}
	return *now != *was;
}

/* A marked entry is stale only if a descriptor now differs from what the
 * walk read. */
static bool still_stale(struct memsys *ms, struct tlb_entry *e, uint32_t va, uint32_t pc)
{
	uint32_t dpa, was, now;
	const char *level;

	if (!descriptor_changed(ms, e, &dpa, &was, &now, &level)) {
		e->changed = false;
		return false;
	}
	oracle_report(ms, MS_STALE_TLB, va, e->pbase | (va & ~e->vmask), pc, dpa,
		      "TLB entry walked from %s descriptor 0x%08x at PA 0x%08x used after it "
		      "became 0x%08x (PC 0x%08x) with no c8 invalidate",
		      level, was, dpa, now, ms->writer[word_index(ms, dpa)]);
	return true;
}

/*
 * A walk for va: a ghost covering it is an entry another ARM926 could
 * still use instead of walking.  If its descriptor changed since, that
 * TLB would translate through the old one: the missing c8 is reported
 * here, whichever entry this model's replacement happened to evict.
 */
static void ghost_check(struct memsys *ms, uint32_t va, uint32_t pc)
{
	struct tlb *t = &ms->tlb;

	for (unsigned k = 0; k < 3; k++) {
		struct tlb_ghost *g = &t->ghost[k][va >> ghost_shift[k]];
		uint32_t dpa, was, now;
		const char *level;

		if (g->gen != t->ghost_gen)
			continue;
		g->gen = 0;
		if (!descriptor_changed(ms, &g->e, &dpa, &was, &now, &level))
			continue;
		oracle_report(ms, MS_STALE_TLB, va, g->e.pbase | (va & ~g->e.vmask), pc, dpa,
			      "TLB entry walked from %s descriptor 0x%08x at PA 0x%08x, evicted by a "
			      "later walk, not invalidated: the descriptor became 0x%08x (PC 0x%08x) "
			      "with no c8 invalidate, so a TLB that kept the entry uses it",
			      level, was, dpa, now, ms->writer[word_index(ms, dpa)]);
		return;
	}
}

const struct tlb_entry *tlb_lookup_slow(struct memsys *ms, uint32_t va, uint32_t pc)
{
	struct tlb_entry *e = lookup(&ms->tlb, va);
	struct tlb_entry n;

	if (e && e->changed && still_stale(ms, e, va, pc)) {
		/* Reported once; from here on follow the guest's tables. */
		e->valid = false;
		count_locked(&ms->tlb);
		e = NULL;
	}
	if (e)
		return e;
	ms->st.tlb_misses++;
	ghost_check(ms, va, pc);
	if (!walk(ms, va, pc, &n))
		return NULL;
	return insert(ms, &n, va);
}

/* The watch bit stays until a c8 of all: a ghost, or the machine's own
 * translation cache, may still hold an entry walked from this word. */
void tlb_store_hook(struct memsys *ms, uint32_t pa)
{
	struct tlb *t = &ms->tlb;

	t->outside_changed = true;
	pa &= ~3u;
	for (unsigned i = 0; i < TLB_SETS * TLB_WAYS + TLB_LOCKED; i++) {
		struct tlb_entry *e = i < TLB_SETS * TLB_WAYS ? &t->main[i]
							      : &t->locked[i - TLB_SETS * TLB_WAYS];

		if (e->valid && (e->l1pa == pa || (e->has_l2 && e->l2pa == pa)))
			e->changed = true;
	}
}

bool ms_tlb_changed(struct memsys *ms)
{
	bool changed = ms->tlb.outside_changed;

	ms->tlb.outside_changed = false;
	return changed;
}

/* c8 with CRm 5 (I), 6 (D) or 7 (both): one unified TLB, so all three act
 * on every entry.  opc2 0 spares the lockdown part; opc2 1 (by MVA) does not. */
void tlb_op(struct memsys *ms, unsigned crm, unsigned opc2, uint32_t val)
{
	struct tlb *t = &ms->tlb;

	if (crm < 5 || crm > 7)
		return;
	if (opc2 == 0) {
		for (unsigned i = 0; i < TLB_SETS * TLB_WAYS; i++)
			t->main[i].valid = false;
		if (++t->ghost_gen == 0)
			t->ghost_gen = 1;
		/* Only the lockdown entries are left to watch for. */
		unwatch_all(ms);
		for (unsigned i = 0; i < TLB_LOCKED; i++)
			if (t->locked[i].valid) {
				watch(ms, t->locked[i].l1pa);
				if (t->locked[i].has_l2)
					watch(ms, t->locked[i].l2pa);
			}
	} else if (opc2 == 1) {
		ghost_drop(t, val);
		for (unsigned i = 0; i < TLB_SETS * TLB_WAYS; i++)
			if (covers(&t->main[i], val))
				t->main[i].valid = false;
		for (unsigned i = 0; i < TLB_LOCKED; i++)
			if (covers(&t->locked[i], val))
				t->locked[i].valid = false;
		count_locked(t);
	}
}
