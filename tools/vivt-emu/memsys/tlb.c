/*
 * The unified TLB: a 2-way main part of 32 sets and an 8-entry lockdown
 * part.  Entries stay until a c8 invalidate or until a walk needs their way
 * (seeded random or round-robin); SCTLR and TTBR writes leave them alone,
 * as on the ARM926.  Each entry remembers the descriptor words it was
 * walked from; a store to one of them marks it, and its next use while the
 * descriptor differs is a stale-TLB report.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memsys-int.h"

int tlb_init(struct memsys *ms)
{
	ms->tlb.watch = calloc(ms->words / 32 + 1, sizeof(uint32_t));
	return ms->tlb.watch ? 0 : -1;
}

void tlb_free(struct memsys *ms)
{
	free(ms->tlb.watch);
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
	if (pa_in_ram(ms, pa)) {
		size_t idx = word_index(ms, pa);

		ms->tlb.watch[idx / 32] |= 1u << (idx % 32);
	}
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

/* A marked entry is stale only if a descriptor now differs from what the
 * walk read: rewriting the same value needs no c8. */
static bool still_stale(struct memsys *ms, struct tlb_entry *e, uint32_t va, uint32_t pc)
{
	uint32_t dpa = e->l1pa, was = e->l1val, now = ram_word(ms, e->l1pa);
	const char *level = "L1";

	if (now == was && e->has_l2) {
		dpa = e->l2pa;
		was = e->l2val;
		now = ram_word(ms, dpa);
		level = "L2";
	}
	if (now == was) {
		e->changed = false;
		return false;
	}
	oracle_report(ms, MS_STALE_TLB, va, e->pbase | (va & ~e->vmask), pc, dpa,
		      "TLB entry walked from %s descriptor 0x%08x at PA 0x%08x used after it "
		      "became 0x%08x (PC 0x%08x) with no c8 invalidate",
		      level, was, dpa, now, ms->writer[word_index(ms, dpa)]);
	return true;
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
	if (!walk(ms, va, pc, &n))
		return NULL;
	return insert(ms, &n, va);
}

void tlb_store_hook(struct memsys *ms, uint32_t pa)
{
	struct tlb *t = &ms->tlb;
	size_t idx = word_index(ms, pa);
	bool used = false;

	pa &= ~3u;
	for (unsigned i = 0; i < TLB_SETS * TLB_WAYS + TLB_LOCKED; i++) {
		struct tlb_entry *e = i < TLB_SETS * TLB_WAYS ? &t->main[i]
							      : &t->locked[i - TLB_SETS * TLB_WAYS];

		if (e->valid && (e->l1pa == pa || (e->has_l2 && e->l2pa == pa))) {
			e->changed = true;
			used = true;
		}
	}
	if (!used)
		t->watch[idx / 32] &= ~(1u << (idx % 32));
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
	} else if (opc2 == 1) {
		for (unsigned i = 0; i < TLB_SETS * TLB_WAYS; i++)
			if (covers(&t->main[i], val))
				t->main[i].valid = false;
		for (unsigned i = 0; i < TLB_LOCKED; i++)
			if (covers(&t->locked[i], val))
				t->locked[i].valid = false;
		count_locked(t);
	}
}
