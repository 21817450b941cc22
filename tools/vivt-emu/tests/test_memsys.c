/*
 * Unit tests of the memory-system model (memsys.h), driven the way the
 * machine drives it: the test writes the coherent RAM as Unicorn would and
 * then tells the model about the access.  Each test states the rule it
 * checks and fails if the model stops applying it.  TAP on stdout
 * (tests/lib/tap.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tap.h"
#include "../memsys/memsys-int.h"

#define RAM_SIZE	(4u << 20)
#define QEMU_CTYPE	0x01dd20d2u
#define ARM926_16K	0x1d152152u	/* a real ARM926EJ-S with 16 KiB caches */

#define L1_PA		0x4000u		/* 16 KiB aligned */
#define L2_PA		0x8000u		/* coarse table for VA_PAGES */
#define VA_WB		0x10000000u	/* -> PA 0, write-back */
#define VA_WB2		0x20000000u	/* -> PA 0, write-back (a second alias) */
#define VA_NCB		0x30000000u	/* -> PA 0, uncached buffered */
#define VA_SO		0x40000000u	/* -> PA 0, strongly ordered */
#define VA_WT		0x50000000u	/* -> PA 0, write-through */
#define VA_PAGES	0x60000000u	/* small pages from L2_PA */
#define DEV_VA		0x70000000u	/* -> PA 0x10100000, outside RAM */
#define PC		0x8000u

struct harness {
	struct memsys *ms;
	uint8_t *ram;
	unsigned n[MS_REPORT_KINDS];
	struct ms_report last;
};

static void on_report(void *ctx, const struct ms_report *r)
{
	struct harness *h = ctx;

	h->n[r->kind]++;
	h->last = *r;
	if (getenv("MEMSYS_TEST_VERBOSE"))
		printf("# %s va 0x%08x pa 0x%08x pc 0x%08x: %s\n", ms_report_kind_name(r->kind),
		       r->va, r->pa, r->pc, r->detail);
}

static unsigned total(const struct harness *h)
{
	unsigned t = 0;

	for (unsigned k = 0; k < MS_REPORT_KINDS; k++)
		t += h->n[k];
	return t;
}

static void wr_ram(struct harness *h, uint32_t pa, uint32_t v)
{
	memcpy(h->ram + pa, &v, 4);
}

static void section(struct harness *h, uint32_t va, uint32_t pa, unsigned cb)
{
	wr_ram(h, L1_PA + (va >> 20) * 4, (pa & 0xfff00000u) | (3u << 10) | (cb << 2) | 2);
}

static uint32_t small_page(uint32_t pa, unsigned cb)
{
	return (pa & 0xfffff000u) | (0xffu << 4) | (cb << 2) | 2;
}

static struct ms_config config(struct harness *h, uint32_t ctype, uint32_t dbytes)
{
	struct ms_config c = {
		.ram = h->ram, .ram_base = 0, .ram_size = RAM_SIZE, .ctype = ctype,
		.dcache_bytes = dbytes, .repl = MS_REPL_ROUND_ROBIN, .seed = 1,
		.report = on_report, .report_ctx = h,
	};
	return c;
}

/* Tables written before the model starts count as loaded by the ELF. */
static struct harness *setup(uint32_t dbytes, bool mmu)
{
	struct harness *h = calloc(1, sizeof(*h));
	struct ms_config c;

	h->ram = calloc(1, RAM_SIZE);
	for (uint32_t mb = 0; mb < RAM_SIZE >> 20; mb++)
		section(h, mb << 20, mb << 20, 3);
	for (uint32_t mb = 0; mb < RAM_SIZE; mb += 1u << 20) {
		section(h, VA_WB + mb, mb, 3);
		section(h, VA_WB2 + mb, mb, 3);
		section(h, VA_NCB + mb, mb, 1);
		section(h, VA_SO + mb, mb, 0);
		section(h, VA_WT + mb, mb, 2);
	}
	section(h, DEV_VA, 0x10100000u, 0);
	wr_ram(h, L1_PA + (VA_PAGES >> 20) * 4, L2_PA | (1u << 4) | 1);
	for (unsigned i = 0; i < 16; i++)
		wr_ram(h, L2_PA + 4 * i, small_page(0x100000u + i * 0x1000u, 3));
	c = config(h, QEMU_CTYPE, dbytes);
	h->ms = ms_new(&c);
	if (mmu) {
		ms_cp15_write(h->ms, 2, 0, 0, 0, L1_PA, PC);
		ms_cp15_write(h->ms, 3, 0, 0, 0, 0xffffffffu, PC);
		ms_cp15_write(h->ms, 1, 0, 0, 0, SCTLR_M | SCTLR_C | SCTLR_I, PC);
	}
	return h;
}

static void done(struct harness *h)
{
	ms_free(h->ms);
	free(h->ram);
	free(h);
}

static void ld(struct harness *h, uint32_t va)
{
	ms_load(h->ms, va, 4, PC);
}

/* A store: RAM first (Unicorn's view is always coherent), then the model. */
static void st(struct harness *h, uint32_t va, uint32_t pa, uint32_t v)
{
	wr_ram(h, pa, v);
	ms_store(h->ms, va, 4, PC);
}

static void cp15(struct harness *h, unsigned crn, unsigned crm, unsigned opc2, uint32_t v)
{
	ms_cp15_write(h->ms, crn, 0, crm, opc2, v, PC);
}

#define clean(h, va)	cp15(h, 7, 10, 1, va)
#define inval(h, va)	cp15(h, 7, 6, 1, va)
#define flush(h, va)	cp15(h, 7, 14, 1, va)
#define drain(h)	cp15(h, 7, 10, 4, 0)
#define tlb_inval(h, va) cp15(h, 8, 7, 1, va)

static struct ms_stats stats(struct harness *h)
{
	struct ms_stats s;

	ms_get_stats(h->ms, &s);
	return s;
}

/* ---- the tests: each returns NULL on success or what went wrong ---- */

static const char *t_read_allocate(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;

	st(h, VA_WB + 0x100, 0x100, 1);		/* write miss */
	if (stats(h).dline_fills)
		err = "a write miss filled a line";
	inval(h, VA_WB + 0x100);		/* no line: nothing to lose */
	if (!err && total(h))
		err = "invalidate after a write miss reported a lost write";
	ld(h, VA_WB + 0x100);
	if (!err && (stats(h).dline_fills != 1 || total(h)))
		err = "a read miss did not fill, or saw stale data";
	done(h);
	return err;
}

static const char *t_dirty_inval_lost(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;

	ld(h, VA_WB + 0x200);
	st(h, VA_WB + 0x200, 0x200, 7);
	inval(h, VA_WB + 0x200);
	if (h->n[MS_LOST_WRITE_INVAL] != 1 || h->last.pa != 0x200)
		err = "dirty line dropped by c7,c6,1 not reported as a lost write at its PA";
	else if (h->last.writer_pc != PC)
		err = "report does not name the PC of the lost store";
	done(h);
	return err;
}

static const char *t_clean_inval_ok(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;

	ld(h, VA_WB + 0x200);
	st(h, VA_WB + 0x200, 0x200, 7);
	clean(h, VA_WB + 0x200);
	inval(h, VA_WB + 0x200);
	ld(h, VA_WB + 0x200);			/* refill after the write-back */
	drain(h);
	ld(h, VA_SO + 0x200);
	if (total(h))
		err = "clean then invalidate reported something";
	done(h);
	return err;
}

static const char *t_alias_writeback_overwrite(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;

	ld(h, VA_WB + 0x40);
	ld(h, VA_WB2 + 0x40);
	st(h, VA_WB + 0x40, 0x40, 1);
	st(h, VA_WB2 + 0x40, 0x40, 2);
	clean(h, VA_WB2 + 0x40);
	drain(h);
	if (total(h))
		err = "reported before the stale write-back";
	clean(h, VA_WB + 0x40);			/* older data over newer */
	drain(h);
	if (!err && (h->n[MS_LOST_WRITE_WB] != 1 || h->last.pa != 0x40))
		err = "stale alias write-back over newer memory not reported";
	done(h);
	return err;
}

static const char *t_stale_read_equal_value(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;

	ld(h, VA_WB + 0x80);
	ld(h, VA_WB2 + 0x80);
	st(h, VA_WB + 0x80, 0x80, 0);		/* same value memory already holds */
	ld(h, VA_WB2 + 0x80);
	if (h->n[MS_STALE_READ] != 1 || h->last.va != VA_WB2 + 0x80)
		err = "stale read through the second alias not reported";
	done(h);
	return err;
}

static const char *t_evict_to_stored_pa(void)
{
	/* 1 KiB: 8 sets; VA_PAGES + 0 and + n*256 share set 0. */
	struct harness *h = setup(1024, true);
	const char *err = NULL;
	uint32_t pte = L2_PA;

	ld(h, VA_PAGES);
	st(h, VA_PAGES, 0x100000u, 5);		/* dirty, PA tag 0x100000 */
	/* Remap the page to another frame (tables kept clean: SO alias). */
	wr_ram(h, pte, small_page(0x180000u, 3));
	ms_store(h->ms, VA_SO + pte, 4, PC);
	tlb_inval(h, VA_PAGES);
	for (unsigned i = 1; i <= 4; i++)	/* round robin: evicts way 0 */
		ld(h, VA_WB + i * 1024);
	drain(h);
	ld(h, VA_SO + 0x100000u);		/* old frame: must hold the store */
	ld(h, VA_SO + 0x180000u);		/* new frame: untouched */
	if (stats(h).devictions < 1)
		err = "no eviction happened";
	else if (total(h))
		err = "eviction did not write back to the line's stored PA";
	done(h);
	return err;
}

static const char *t_walk_sees_memory_only(void)
{
	const char *err = NULL;

	for (int variant = 0; variant < 3 && !err; variant++) {
		struct harness *h = setup(0, true);
		uint32_t pte = L2_PA + 4 * 3, va = VA_PAGES + 3 * 0x1000u;

		ld(h, VA_WB + pte);		/* the PTE line is cached */
		st(h, VA_WB + pte, pte, small_page(0x1c0000u, 3));
		if (variant >= 1)
			clean(h, VA_WB + pte);
		if (variant == 2)
			drain(h);
		ld(h, va);			/* first use: walks */
		if (variant < 2 && h->n[MS_UNCLEAN_WALK] != 1)
			err = variant ? "clean without drain: walk not reported"
				      : "no clean: walk not reported";
		if (variant == 2 && total(h))
			err = "clean and drain: walk reported";
		done(h);
	}
	return err;
}

static const char *t_walk_write_buffer(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;
	uint32_t pte = L2_PA + 4 * 5;

	st(h, VA_NCB + pte, pte, small_page(0x1c0000u, 3));	/* buffered */
	ld(h, VA_NCB + pte);		/* the CPU sees its own store */
	if (total(h))
		err = "a load did not see the CPU's own buffered store";
	ld(h, VA_PAGES + 5 * 0x1000u);
	if (!err && h->n[MS_UNCLEAN_WALK] != 1)
		err = "walker saw a store still in the write buffer";
	done(h);
	return err;
}

static const char *t_stale_tlb(void)
{
	const char *err = NULL;

	for (int with_c8 = 0; with_c8 < 2 && !err; with_c8++) {
		struct harness *h = setup(0, true);
		uint32_t pte = L2_PA + 4 * 2, va = VA_PAGES + 2 * 0x1000u;

		ld(h, va);			/* entry walked from pte */
		flush(h, va);			/* the cache is not the point here */
		st(h, VA_SO + pte, pte, small_page(0x1d0000u, 3));
		if (with_c8)
			tlb_inval(h, va);
		ld(h, va + 4);
		if (!with_c8 && (h->n[MS_STALE_TLB] != 1 || total(h) != 1))
			err = "use of a TLB entry after its PTE changed not reported";
		if (with_c8 && total(h))
			err = "reported although c8 invalidated the entry";
		done(h);
	}
	if (!err) {
		/* Rewriting the same value needs no invalidate. */
		struct harness *h = setup(0, true);
		uint32_t pte = L2_PA + 4 * 2;

		ld(h, VA_PAGES + 2 * 0x1000u);
		st(h, VA_SO + pte, pte, small_page(0x100000u + 2 * 0x1000u, 3));
		ld(h, VA_PAGES + 2 * 0x1000u);
		if (total(h))
			err = "same-value PTE store reported as a stale TLB";
		done(h);
	}
	return err;
}

/*
 * The entry is evicted by two walks into its set before the PTE changes:
 * an ARM926 whose replacement kept it would still use it, so the next walk
 * of its VA is the report, unless a c8 (by MVA or of all) came in between.
 */
static const char *t_stale_tlb_evicted(void)
{
	const char *err = NULL;

	for (int c8 = 0; c8 < 3 && !err; c8++) {
		struct harness *h = setup(0, true);
		uint32_t pte = L2_PA + 4 * 2, va = VA_PAGES + 2 * 0x1000u;

		ld(h, va);				/* set 2, way 0 */
		flush(h, va);				/* the cache is not the point here */
		ld(h, VA_WB + 0x200000u);		/* a section in set 2, way 1 */
		ld(h, VA_WB2 + 0x200000u);		/* evicts va's entry */
		if (ms_tlb_changed(h->ms))
			err = "the machine told to drop translations with no table store";
		st(h, VA_SO + pte, pte, small_page(0x1d0000u, 3));
		if (!err && !ms_tlb_changed(h->ms))
			err = "a store to a walked descriptor does not tell the machine";
		if (!err && ms_tlb_changed(h->ms))
			err = "the machine told twice of one store";
		if (c8 == 1)
			tlb_inval(h, va);
		if (c8 == 2)
			cp15(h, 8, 7, 0, 0);
		ld(h, va);
		if (!err && !c8 && (h->n[MS_STALE_TLB] != 1 || total(h) != 1))
			err = "an evicted entry whose PTE changed without c8 is not reported at the next walk";
		if (!err && c8 && total(h))
			err = "reported although a c8 invalidated the evicted entry";
		done(h);
	}
	return err;
}

static const char *t_tlb_survives_sctlr_ttbr(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;
	uint32_t pte = L2_PA + 4 * 6, va = VA_PAGES + 6 * 0x1000u;

	ld(h, va);
	st(h, VA_SO + pte, pte, small_page(0x1e0000u, 3));
	cp15(h, 2, 0, 0, L1_PA);
	cp15(h, 1, 0, 0, SCTLR_M | SCTLR_C | SCTLR_I);
	ld(h, va);
	if (h->n[MS_STALE_TLB] != 1)
		err = "TTBR/SCTLR writes flushed the TLB";
	done(h);
	return err;
}

static const char *t_icache_stale(void)
{
	const char *err = NULL;

	for (int with_inval = 0; with_inval < 2 && !err; with_inval++) {
		struct harness *h = setup(0, false);

		cp15(h, 1, 0, 0, SCTLR_I);	/* I-cache on, MMU off */
		ms_fetch(h->ms, 0x9000, 4, 0x9000);
		st(h, 0x9000, 0x9000, 0xe1a00000u);	/* SO with the MMU off */
		if (with_inval)
			cp15(h, 7, 5, 0, 0);
		ms_fetch(h->ms, 0x9000, 4, 0x9000);
		if (!with_inval && h->n[MS_STALE_IFETCH] != 1)
			err = "stale fetch after a code store without c7,c5,0 not reported";
		if (with_inval && total(h))
			err = "reported after c7,c5,0";
		done(h);
	}
	return err;
}

static const char *t_icache_block_fetch(void)
{
	/* The machine reports a whole translated block at once. */
	struct harness *h = setup(0, false);
	const char *err = NULL;

	cp15(h, 1, 0, 0, SCTLR_I);
	ms_fetch(h->ms, 0x9010, 0x40, 0x9010);		/* three lines */
	st(h, 0x9038, 0x9038, 0xe1a00000u);
	ms_fetch(h->ms, 0x9010, 0x40, 0x9010);
	if (h->n[MS_STALE_IFETCH] != 1 || h->last.va != 0x9038)
		err = "stale word inside a multi-line block not reported at its own VA";
	if (!err && stats(h).iline_fills != 3)
		err = "a block over three lines did not fill three lines";
	done(h);
	return err;
}

static const char *t_icache_from_memory_only(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;

	ld(h, VA_WB + 0xa000);
	st(h, VA_WB + 0xa000, 0xa000, 0xe1a00000u);	/* stays in the D-cache */
	cp15(h, 7, 5, 0, 0);
	ms_fetch(h->ms, VA_WB + 0xa000, 4, VA_WB + 0xa000);
	if (h->n[MS_STALE_IFETCH] != 1)
		err = "I-cache filled from the D-cache";
	clean(h, VA_WB + 0xa000);
	drain(h);
	cp15(h, 7, 5, 1, VA_WB + 0xa000);
	ms_fetch(h->ms, VA_WB + 0xa000, 4, VA_WB + 0xa000 + 4);
	if (!err && total(h) != 1)
		err = "clean, drain and c7,c5,1 still gave a stale fetch";
	done(h);
	return err;
}

static const char *t_test_and_clean(void)
{
	const char *err = NULL;

	for (int inv = 0; inv < 2 && !err; inv++) {
		struct harness *h = setup(0, true);
		unsigned crm = inv ? 14 : 10, calls = 0;
		uint32_t v = 0;

		for (unsigned i = 0; i < 3; i++) {
			ld(h, VA_WB + 0x1000 * i);
			st(h, VA_WB + 0x1000 * i, 0x1000 * i, i + 1);
		}
		ld(h, VA_WB + 0x5000);		/* a clean line */
		do {
			if (!ms_cp15_read(h->ms, 7, 0, crm, 3, PC, &v)) {
				err = "test-and-clean not answered";
				break;
			}
		} while (!(v & (1u << 30)) && ++calls < 100);
		if (!err && calls != 3)
			err = "Z not set exactly once every dirty line was cleaned";
		if (!err && v != 1u << 30)
			err = "flags other than Z returned";
		drain(h);
		for (unsigned i = 0; i < 3; i++)
			ld(h, VA_SO + 0x1000 * i);
		if (!err && total(h))
			err = "test-and-clean did not write back the dirty lines";
		if (!err && stats(h).dwritebacks != 3)
			err = "wrong number of write-backs";
		{
			uint64_t before = stats(h).dline_fills;

			ld(h, VA_WB + 0x5000);
			if (!err && inv && stats(h).dline_fills != before + 1)
				err = "c7,c14,3 left the cache valid once clean";
			if (!err && !inv && stats(h).dline_fills != before)
				err = "c7,c10,3 invalidated lines";
		}
		done(h);
	}
	return err;
}

static const char *t_cache_size(void)
{
	struct harness h0 = { 0 };
	struct ms_config c;
	struct memsys *ms;
	const char *err = NULL;

	h0.ram = calloc(1, RAM_SIZE);
	c = config(&h0, ARM926_16K, 0);
	ms = ms_new(&c);
	if (!ms || ms->dc.bytes != 16384 || ms->ic.bytes != 16384 || ms->dc.nsets != 128)
		err = "ctype 0x1d152152 is not 16 KiB + 16 KiB";
	ms_free(ms);
	c = config(&h0, QEMU_CTYPE, 0);
	ms = ms_new(&c);
	if (!err && (!ms || ms->dc.bytes != 65536 || ms->ic.bytes != 4096))
		err = "QEMU's ctype 0x01dd20d2 is not D 64 KiB, I 4 KiB";
	ms_free(ms);
	c = config(&h0, QEMU_CTYPE, 4096);
	ms = ms_new(&c);
	if (!err && (!ms || ms->dc.bytes != 4096 || ms->dc.nsets != 32))
		err = "override 4096 not applied";
	ms_free(ms);
	fprintf(stderr, "# (three configuration errors expected next)\n");
	c = config(&h0, QEMU_CTYPE, 3000);
	if (!err && ms_new(&c))
		err = "override of 3000 bytes accepted";
	c = config(&h0, 0, 0);
	if (!err && ms_new(&c))
		err = "cache type 0 accepted";
	c = config(&h0, QEMU_CTYPE, 0);
	c.ram_size = 1000;
	if (!err && ms_new(&c))
		err = "RAM of 1000 bytes accepted";
	free(h0.ram);
	return err;
}

static const char *t_small_cache_evicts(void)
{
	/* 4 KiB: a 16 KiB sweep must evict, and with clean-before-reuse
	 * discipline nothing may be reported. */
	struct harness *h = setup(4096, true);
	const char *err = NULL;

	for (uint32_t a = 0x20000; a < 0x24000; a += 4) {
		ld(h, VA_WB + a);
		st(h, VA_WB + a, a, a);
	}
	for (uint32_t a = 0x20000; a < 0x24000; a += 4)
		ld(h, VA_WB + a);
	if (stats(h).devictions < 256 || stats(h).dwritebacks < 256)
		err = "a 4 KiB cache did not evict and write back";
	else if (total(h))
		err = "single-mapping traffic reported";
	done(h);
	return err;
}

static const char *t_write_through(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;

	ld(h, VA_WT + 0x300);
	st(h, VA_WT + 0x300, 0x300, 9);		/* hit: line and write buffer */
	ld(h, VA_WT + 0x300);
	inval(h, VA_WT + 0x300);		/* never dirty: nothing lost */
	ld(h, VA_WT + 0x300);			/* refill drains the store first */
	if (total(h))
		err = "write-through path reported";
	if (!err && (stats(h).dwritebacks || stats(h).dline_fills != 2))
		err = "write-through line was dirty or not refilled";
	done(h);
	return err;
}

static const char *t_uncached(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;

	st(h, VA_NCB + 0x400, 0x400, 3);
	ld(h, VA_NCB + 0x400);
	st(h, VA_SO + 0x404, 0x404, 4);
	ld(h, VA_SO + 0x404);
	if (total(h) || stats(h).dline_fills)
		err = "uncached accesses reported or allocated";
	ld(h, VA_WB + 0x500);
	st(h, VA_WB + 0x500, 0x500, 1);		/* dirty in the cache */
	ld(h, VA_NCB + 0x500);			/* uncached view misses it */
	if (!err && h->n[MS_STALE_READ] != 1)
		err = "uncached read of a dirty cached word not reported";
	ms_load(h->ms, DEV_VA + 8, 4, PC);	/* devices are ignored */
	if (!err && (total(h) != 1 || stats(h).loads != 5))
		err = "device access not ignored or not counted";
	done(h);
	return err;
}

static const char *t_stale_mapping_line(void)
{
	/* A kmap slot remapped without flushing: the old line still hits. */
	struct harness *h = setup(0, true);
	const char *err = NULL;
	uint32_t pte = L2_PA + 4 * 7, va = VA_PAGES + 7 * 0x1000u;

	ld(h, va);
	st(h, VA_SO + pte, pte, small_page(0x1f0000u, 3));
	tlb_inval(h, va);
	ld(h, va);
	if (h->n[MS_STALE_READ] != 1)
		err = "hit on a line of the old mapping not reported";
	done(h);
	return err;
}

static const char *t_report_cap(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;

	ld(h, VA_WB + 0x80);
	ld(h, VA_WB2 + 0x80);
	st(h, VA_WB + 0x80, 0x80, 1);
	for (int i = 0; i < 50; i++)
		ld(h, VA_WB2 + 0x80);
	if (h->n[MS_STALE_READ] != CAP_PER_SITE || stats(h).reports[MS_STALE_READ] != 50)
		err = "repeats not capped, or not counted";
	done(h);
	return err;
}

static const char *t_random_clean_traffic(void)
{
	/* Random loads and stores through one mapping, random replacement
	 * in a 1 KiB cache, then a test-clean loop and a drain: no report,
	 * and memory ends up with every newest write. */
	struct harness *h = setup(1024, true);
	const char *err = NULL;
	uint32_t x = 12345, v;
	struct ms_config c = config(h, QEMU_CTYPE, 1024);

	ms_free(h->ms);
	c.repl = MS_REPL_RANDOM;
	c.seed = 99;
	h->ms = ms_new(&c);
	cp15(h, 2, 0, 0, L1_PA);
	cp15(h, 1, 0, 0, SCTLR_M | SCTLR_C | SCTLR_I);
	for (int i = 0; i < 200000; i++) {
		uint32_t a;

		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		a = 0x40000 + (x % 0x4000) * 4;
		if (x & 0x10000)
			st(h, VA_WB + a, a, x);
		else
			ld(h, VA_WB + a);
	}
	do
		ms_cp15_read(h->ms, 7, 0, 14, 3, PC, &v);
	while (!(v & (1u << 30)));
	drain(h);
	for (uint32_t a = 0x40000; a < 0x50000; a += 4)
		ld(h, VA_SO + a);
	if (total(h))
		err = "coherent traffic reported";
	done(h);
	return err;
}

static const char *t_debug_read(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;

	ld(h, VA_WB + 0x600);
	st(h, VA_WB + 0x600, 0x600, 0x20026);	/* dirty: memory is old */
	ms_debug_read(h->ms, VA_WB + 0x600, 8, PC);
	if (h->n[MS_STALE_READ] != 1 || h->last.pa != 0x600)
		err = "debugger read of a dirty cached word not reported";
	clean(h, VA_WB + 0x600);
	ms_debug_read(h->ms, VA_WB + 0x600, 8, PC + 4);
	if (!err && h->n[MS_STALE_READ] != 2)
		err = "debugger read saw the write buffer";
	drain(h);
	ms_debug_read(h->ms, VA_WB + 0x600, 8, PC + 8);
	if (!err && (total(h) != 2 || stats(h).loads != 1))
		err = "clean + drain: debugger read still reported, or counted as a load";
	done(h);
	return err;
}

/* A device writes memory as the PL080 model does: RAM first, then the oracle. */
static void dev_wr(struct harness *h, uint32_t pa, uint32_t v)
{
	wr_ram(h, pa, v);
	ms_dma_write(h->ms, pa, 4, PC);
}

static const char *t_dma_read_dirty(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;

	ld(h, VA_WB + 0x700);
	st(h, VA_WB + 0x700, 0x700, 1);         /* dirty: memory is old */
	ms_dma_read(h->ms, 0x700, 8, PC);
	if (h->n[MS_DMA_STALE_MEMORY] != 1 || h->last.pa != 0x700)
		err = "device read of a word still in a dirty line not reported";
	clean(h, VA_WB + 0x700);
	ms_dma_read(h->ms, 0x700, 8, PC + 4);
	if (!err && h->n[MS_DMA_STALE_MEMORY] != 2)
		err = "device read saw the write buffer";
	drain(h);
	ms_dma_read(h->ms, 0x700, 8, PC + 8);
	if (!err && (total(h) != 2 || stats(h).loads != 1))
		err = "clean + drain: device read still reported, or counted as a load";
	done(h);
	return err;
}

static const char *t_dma_stale_line(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;

	ld(h, VA_WB + 0x740);                   /* line cached */
	dev_wr(h, 0x740, 9);
	ld(h, VA_WB + 0x740);
	if (h->n[MS_DMA_STALE_LINE] != 1 || h->n[MS_STALE_READ] != 0)
		err = "load hitting a line older than a device write not reported as such";
	cp15(h, 7, 6, 1, VA_WB + 0x740);        /* invalidate */
	ld(h, VA_WB + 0x740);
	if (!err && total(h) != 1)
		err = "after the invalidate the load still reported";
	st(h, VA_WB + 0x744, 0x744, 3);         /* a CPU write makes the word the CPU's again */
	done(h);
	return err;
}

static const char *t_dma_clobber(void)
{
	struct harness *h = setup(0, true);
	const char *err = NULL;

	ld(h, VA_WB + 0x780);
	st(h, VA_WB + 0x784, 0x784, 5);         /* dirty */
	dev_wr(h, 0x780, 7);                    /* the device writes the same line */
	clean(h, VA_WB + 0x780);
	drain(h);
	if (h->n[MS_DMA_CLOBBER] != 1 || h->n[MS_LOST_WRITE_WB] != 0)
		err = "write-back over a device write not reported as such";
	done(h);
	return err;
}

static const struct {
	const char *name;
	const char *(*fn)(void);
} tests[] = {
	{ "write miss does not allocate (read-allocate)", t_read_allocate },
	{ "dirty line + c7,c6,1 => lost write", t_dirty_inval_lost },
	{ "clean then invalidate => no report", t_clean_inval_ok },
	{ "two dirty aliases of one PA: stale write-back reported", t_alias_writeback_overwrite },
	{ "stale read through a second alias with an equal value", t_stale_read_equal_value },
	{ "eviction writes back to the line's stored PA", t_evict_to_stored_pa },
	{ "walker reads memory: no clean / clean only / clean + drain", t_walk_sees_memory_only },
	{ "walker does not see the write buffer; the CPU does", t_walk_write_buffer },
	{ "stale TLB after a PTE store without c8; none with c8", t_stale_tlb },
	{ "an evicted TLB entry whose PTE changed without c8: reported at the next walk",
	  t_stale_tlb_evicted },
	{ "TTBR and SCTLR writes do not flush the TLB", t_tlb_survives_sctlr_ttbr },
	{ "stale I-cache after a code store without c7,c5,0", t_icache_stale },
	{ "I-cache fills from memory, not the D-cache", t_icache_from_memory_only },
	{ "a block fetch over several lines is checked word by word", t_icache_block_fetch },
	{ "test-and-clean loops end with Z once nothing is dirty", t_test_and_clean },
	{ "cache size from ctype, override, bad configurations", t_cache_size },
	{ "a 4 KiB D-cache evicts and stays coherent", t_small_cache_evicts },
	{ "write-through path", t_write_through },
	{ "uncached buffered and strongly ordered paths; devices ignored", t_uncached },
	{ "a line of a remapped VA hits: stale read", t_stale_mapping_line },
	{ "repeated reports capped per site, all counted", t_report_cap },
	{ "random coherent traffic, random replacement: no report", t_random_clean_traffic },
	{ "debugger reads memory only: needs clean + drain", t_debug_read },
	{ "DMA: a device reads memory only: needs clean + drain", t_dma_read_dirty },
	{ "DMA: a load hitting a line older than a device write", t_dma_stale_line },
	{ "DMA: a write-back landing on a device write", t_dma_clobber },
};

int main(void)
{
	int n = (int)(sizeof(tests) / sizeof(tests[0]));

	tap_plan(n);
	for (int i = 0; i < n; i++) {
		const char *err = tests[i].fn();

		if (!tap_ok(!err, "vivt model: %s", tests[i].name))
			tap_diag("  %s", err);
	}
	return tap_done();
}
