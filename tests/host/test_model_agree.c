/*
 * The two ARM926 cache models side by side: arch/sim (the host model the
 * other host tests run on) and the emulator's memory system (memsys.h,
 * what vivt-emu checks every image with).  Each sequence of loads, stores,
 * table writes and CP15 operations below runs on both; each model must
 * give exactly the kinds of report (report-kinds.h) written beside it.
 * Where the two differ, the sequence names the rule of MODEL.md ("Where
 * the two models differ") that explains it, so a rule changed in one model
 * and not the other fails here.
 *
 * Stores write a value the word never held: the host model finds dirty
 * data by comparing values, the emulator's by versions.
 */
#include <stdio.h>
#include <stdlib.h>
#include "host_test.h"
#include <asm/cacheflush.h>
#include <asm/tlbflush.h>
#include "../../tools/vivt-emu/memsys/memsys.h"

enum op {
	MAP,            /* set_pte_ext(): store, clean the PTE's line, drain */
	PTE_ONLY,       /* a plain store to the PTE, nothing else */
	CLEAN_PTE,      /* c7,c10,1 on the PTE's line */
	DRAIN,          /* c7,c10,4 */
	TLB,            /* c8,c7,1 on the window */
	LD,             /* a word load at an offset in the window */
	ST,             /* a word store of a new value */
	CLEAN,          /* c7,c10,1 over the window's page */
	INV,            /* c7,c6,1 over the window's page */
	FLUSH,          /* c7,c14,1 over the window's page, then drain */
	DMA_RD,         /* a device reads a word of the window's page from memory */
	DMA_WR,         /* a device writes a new value to a word of it in memory */
	END,
};

/* Pages a window can map; NONE clears the PTE. */
enum { P, Q, NONE };

struct step {
	enum op op;
	unsigned int win;       /* window 0 or 1 (two aliases) */
	unsigned int arg;       /* MAP/PTE_ONLY: page; LD/ST/DMA_*: byte offset */
};

#define R(k)    (1u << ARM926_##k)

struct sequence {
	const char *name;
	struct step s[16];
	unsigned int host, emu;         /* report kinds expected from each model */
	const char *differs;            /* the MODEL.md rule, when host != emu */
};

static const struct sequence seqs[] = {
	{ "map, write, flush, unmap: clean",
	  { { MAP, 0, P }, { TLB, 0, 0 }, { LD, 0, 0 }, { ST, 0, 0 }, { FLUSH, 0, 0 },
	    { MAP, 0, NONE }, { TLB, 0, 0 }, { END, 0, 0 } },
	  0, 0, NULL },
	{ "a write miss goes to memory: invalidating after it loses nothing",
	  { { MAP, 0, P }, { TLB, 0, 0 }, { ST, 0, 64 }, { INV, 0, 0 }, { MAP, 1, P },
	    { TLB, 1, 0 }, { LD, 1, 64 }, { END, 0, 0 } },
	  0, 0, NULL },
	{ "invalidate of a dirty line",
	  { { MAP, 0, P }, { TLB, 0, 0 }, { LD, 0, 64 }, { ST, 0, 64 }, { INV, 0, 0 }, { END, 0, 0 } },
	  R(LOST_WRITE_INVAL), R(LOST_WRITE_INVAL), NULL },
	{ "PTE changed without a TLB invalidate",
	  { { MAP, 0, P }, { TLB, 0, 0 }, { LD, 0, 0 }, { FLUSH, 0, 0 }, { MAP, 0, Q },
	    { LD, 0, 0 }, { END, 0, 0 } },
	  R(STALE_TLB), R(STALE_TLB), NULL },
	{ "PTE written, never cleaned, then walked",
	  { { MAP, 0, P }, { PTE_ONLY, 0, Q }, { TLB, 0, 0 }, { LD, 0, 0 }, { END, 0, 0 } },
	  R(UNCLEAN_WALK), R(UNCLEAN_WALK), NULL },
	{ "PTE cleaned but not drained, then walked",
	  { { MAP, 0, P }, { PTE_ONLY, 0, Q }, { CLEAN_PTE, 0, 0 }, { TLB, 0, 0 }, { LD, 0, 0 },
	    { END, 0, 0 } },
	  R(UNCLEAN_WALK), R(UNCLEAN_WALK), NULL },
	{ "read through one alias while the other holds newer dirty data",
	  { { MAP, 0, P }, { TLB, 0, 0 }, { MAP, 1, P }, { TLB, 1, 0 }, { LD, 0, 0 }, { ST, 0, 0 },
	    { LD, 1, 0 }, { END, 0, 0 } },
	  R(STALE_READ), R(STALE_READ), NULL },
	{ "hit on an alias's lines older than what the other cleaned to memory",
	  { { MAP, 0, P }, { TLB, 0, 0 }, { MAP, 1, P }, { TLB, 1, 0 }, { LD, 1, 0 }, { LD, 0, 0 },
	    { ST, 0, 0 }, { CLEAN, 0, 0 }, { LD, 1, 0 }, { END, 0, 0 } },
	  R(STALE_READ), R(STALE_READ), NULL },
	{ "two aliases dirty on one line: the second write-back clobbers the first",
	  { { MAP, 0, P }, { TLB, 0, 0 }, { MAP, 1, P }, { TLB, 1, 0 }, { LD, 0, 0 }, { LD, 1, 0 },
	    { ST, 0, 0 }, { ST, 1, 4 }, { CLEAN, 0, 0 }, { FLUSH, 1, 0 }, { END, 0, 0 } },
	  R(LOST_WRITE_WB), R(LOST_WRITE_WB), NULL },
	{ "two aliases dirty on different halves of one line: each writes back its own",
	  { { MAP, 0, P }, { TLB, 0, 0 }, { MAP, 1, P }, { TLB, 1, 0 }, { LD, 0, 0 }, { LD, 1, 0 },
	    { ST, 0, 0 }, { ST, 1, 16 }, { CLEAN, 0, 0 }, { FLUSH, 1, 0 }, { END, 0, 0 } },
	  0, 0, NULL },
	{ "a device reads what a dirty line holds newer",
	  { { MAP, 0, P }, { TLB, 0, 0 }, { LD, 0, 0 }, { ST, 0, 0 }, { DMA_RD, 0, 0 }, { END, 0, 0 } },
	  R(DMA_STALE_MEMORY), R(DMA_STALE_MEMORY), NULL },
	{ "a device writes under a cached line, the CPU reads it",
	  { { MAP, 0, P }, { TLB, 0, 0 }, { LD, 0, 0 }, { DMA_WR, 0, 0 }, { LD, 0, 0 }, { END, 0, 0 } },
	  R(DMA_STALE_LINE), R(DMA_STALE_LINE), NULL },
	{ "a device writes, the line is invalidated first: clean",
	  { { MAP, 0, P }, { TLB, 0, 0 }, { LD, 0, 0 }, { DMA_WR, 0, 0 }, { INV, 0, 0 }, { LD, 0, 0 },
	    { END, 0, 0 } },
	  0, 0, NULL },
	{ "unmapped with dirty lines, remapped to another page and read",
	  { { MAP, 0, P }, { TLB, 0, 0 }, { LD, 0, 0 }, { ST, 0, 0 }, { MAP, 0, NONE }, { TLB, 0, 0 },
	    { MAP, 0, Q }, { TLB, 0, 0 }, { LD, 0, 0 }, { END, 0, 0 } },
	  R(REMAP_DIRTY) | R(REMAP_VALID), R(STALE_READ), "judged at the remap" },
	{ "remapped over clean lines of the old page, then read",
	  { { MAP, 0, P }, { TLB, 0, 0 }, { LD, 0, 0 }, { MAP, 0, NONE }, { TLB, 0, 0 },
	    { MAP, 0, Q }, { TLB, 0, 0 }, { LD, 0, 0 }, { END, 0, 0 } },
	  R(REMAP_VALID), R(STALE_READ), "judged at the remap" },
	{ "remapped over clean lines, then flushed before any access",
	  { { MAP, 0, P }, { TLB, 0, 0 }, { LD, 0, 0 }, { MAP, 0, NONE }, { TLB, 0, 0 },
	    { MAP, 0, Q }, { TLB, 0, 0 }, { FLUSH, 0, 0 }, { LD, 0, 0 }, { END, 0, 0 } },
	  R(REMAP_VALID), 0, "judged at the remap" },
};

/* ---- the host model: the arch primitives the kmap code calls ---- */

static struct page *host_page[2];

static unsigned long host_va(unsigned int win)
{
	return win ? PKMAP_ADDR(5) : __fix_to_virt(FIX_KMAP_BEGIN + 1);
}

static pte_t host_pte_val(unsigned int pg)
{
	return pg == NONE ? 0 : mk_pte(host_page[pg], PAGE_KERNEL);
}

/* The page the window's PTE maps now (a device sees physical memory). */
static phys_addr_t win_pa(unsigned int win)
{
	return (phys_addr_t)pte_pfn(*virt_to_kpte(host_va(win))) << PAGE_SHIFT;
}

static unsigned int run_host(const struct sequence *sq)
{
	uint32_t value = 0x5eed0000u, word;
	unsigned int kinds = 0;

	sim_verbose = false;
	for (unsigned int i = 0; i < 2; i++)
		host_page[i] = host_alloc(ZONE_HIGHMEM);
	for (const struct step *s = sq->s; s->op != END; s++) {
		unsigned long va = host_va(s->win);
		pte_t *ptep = virt_to_kpte(va);

		switch (s->op) {
		case MAP: set_pte_ext(ptep, host_pte_val(s->arg)); break;
		case PTE_ONLY: *ptep = host_pte_val(s->arg); break;
		case CLEAN_PTE: cpu_dcache_clean_area(ptep, sizeof(*ptep)); break;
		case DRAIN: cpu_drain_write_buffer(); break;
		case TLB: local_flush_tlb_kernel_page(va); break;
		case LD: (void)*(volatile uint32_t *)(va + s->arg); break;
		case ST: *(volatile uint32_t *)(va + s->arg) = ++value; break;
		case CLEAN: cpu_dcache_clean_area((void *)va, PAGE_SIZE); break;
		case INV: cpu_dcache_inv_area((void *)va, PAGE_SIZE); break;
		case FLUSH: __cpuc_flush_dcache_area((void *)va, PAGE_SIZE); break;
		case DMA_RD: sim_dma_read(win_pa(s->win) + s->arg, &word, 4); break;
		case DMA_WR:
			word = ++value;
			sim_dma_write(win_pa(s->win) + s->arg, &word, 4);
			break;
		case END: break;
		}
	}
	cpu_drain_write_buffer();       /* a model event: a plain PTE store is judged */
	for (unsigned int k = 0; k < ARM926_NR_REPORTS; k++)
		if (sim_violations((enum sim_violation)k))
			kinds |= 1u << k;
	sim_clear_violations();
	sim_verbose = true;
	return kinds;
}

/* ---- the emulator's model: the same steps as the CPU would issue them ---- */

#define EMU_RAM         (4u << 20)
#define EMU_L1          0x4000u         /* identity sections, write-back */
#define EMU_L2          0x8000u         /* coarse table of the two windows */
#define EMU_WIN         0x60000000u     /* window w at EMU_WIN + w * 4 KiB */
#define EMU_CTYPE       0x01dd20d2u     /* QEMU's ARM926 */
#define EMU_PC          0x8000u

struct emu {
	struct memsys *ms;
	uint8_t *ram;
	unsigned int kinds;
};

static void emu_report(void *ctx, const struct ms_report *r)
{
	((struct emu *)ctx)->kinds |= 1u << r->kind;
}

static void emu_wr(struct emu *e, uint32_t pa, uint32_t v)
{
	memcpy(e->ram + pa, &v, 4);
}

static uint32_t emu_pte_val(unsigned int pg)
{
	/* Small page, AP all read/write, C and B: what PAGE_KERNEL gives. */
	return pg == NONE ? 0 : (0x100000u + pg * 0x1000u) | (0xffu << 4) | (3u << 2) | 2u;
}

static void emu_cp15(struct emu *e, unsigned int crn, unsigned int crm, unsigned int opc2, uint32_t v)
{
	ms_cp15_write(e->ms, crn, 0, crm, opc2, v, EMU_PC);
}

static void emu_lines(struct emu *e, uint32_t va, unsigned int crm)
{
	for (uint32_t a = va; a < va + PAGE_SIZE; a += 32)
		emu_cp15(e, 7, crm, 1, a);
}

static unsigned int run_emu(const struct sequence *sq)
{
	struct emu e = { .ram = calloc(1, EMU_RAM) };
	struct ms_config c = {
		.ram_size = EMU_RAM, .ctype = EMU_CTYPE, .repl = MS_REPL_ROUND_ROBIN, .seed = 1,
		.dcache_bytes = sim_dcache_size(), .report = emu_report, .report_ctx = &e,
	};
	uint32_t value = 0x5eed0000u;

	assert_non_null(e.ram);
	for (uint32_t mb = 0; mb < EMU_RAM >> 20; mb++)
		emu_wr(&e, EMU_L1 + mb * 4, (mb << 20) | (3u << 10) | (3u << 2) | 2u);
	emu_wr(&e, EMU_L1 + (EMU_WIN >> 20) * 4, EMU_L2 | (1u << 4) | 1u);
	c.ram = e.ram;
	e.ms = ms_new(&c);
	assert_non_null(e.ms);
	emu_cp15(&e, 2, 0, 0, EMU_L1);
	emu_cp15(&e, 3, 0, 0, 0xffffffffu);
	emu_cp15(&e, 1, 0, 0, (1u << 0) | (1u << 2) | (1u << 12));
	for (const struct step *s = sq->s; s->op != END; s++) {
		uint32_t va = EMU_WIN + s->win * PAGE_SIZE, pte = EMU_L2 + s->win * 4;
		uint32_t pa;

		switch (s->op) {
		case MAP:
			emu_wr(&e, pte, emu_pte_val(s->arg));
			ms_store(e.ms, pte, 4, EMU_PC);
			emu_cp15(&e, 7, 10, 1, pte);
			emu_cp15(&e, 7, 10, 4, 0);
			break;
		case PTE_ONLY:
			emu_wr(&e, pte, emu_pte_val(s->arg));
			ms_store(e.ms, pte, 4, EMU_PC);
			break;
		case CLEAN_PTE: emu_cp15(&e, 7, 10, 1, pte); break;
		case DRAIN: emu_cp15(&e, 7, 10, 4, 0); break;
		case TLB: emu_cp15(&e, 8, 7, 1, va); break;
		case LD: ms_load(e.ms, va + s->arg, 4, EMU_PC); break;
		case ST:
			/* The coherent RAM takes the store where the table maps it now. */
			memcpy(&pa, e.ram + pte, 4);
			emu_wr(&e, (pa & ~0xfffu) + s->arg, ++value);
			ms_store(e.ms, va + s->arg, 4, EMU_PC);
			break;
		case CLEAN: emu_lines(&e, va, 10); break;
		case INV: emu_lines(&e, va, 6); break;
		case FLUSH: emu_lines(&e, va, 14); emu_cp15(&e, 7, 10, 4, 0); break;
		case DMA_RD:
			memcpy(&pa, e.ram + pte, 4);
			ms_dma_read(e.ms, (pa & ~0xfffu) + s->arg, 4, EMU_PC);
			break;
		case DMA_WR:
			memcpy(&pa, e.ram + pte, 4);
			emu_wr(&e, (pa & ~0xfffu) + s->arg, ++value);
			ms_dma_write(e.ms, (pa & ~0xfffu) + s->arg, 4, EMU_PC);
			break;
		case END: break;
		}
	}
	ms_free(e.ms);
	free(e.ram);
	return e.kinds;
}

static void names(unsigned int kinds, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned int k = 0; k < ARM926_NR_REPORTS; k++)
		if (kinds & 1u << k)
			n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", n ? ", " : "",
					      arm926_report_name((enum arm926_report)k));
	if (!kinds)
		snprintf(buf, len, "nothing");
}

static void same_sequence_same_verdict(void **state)
{
	const struct sequence *sq = *state;
	unsigned int host = run_host(sq), emu = run_emu(sq);
	char want[160], got[160];

	if (host != sq->host) {
		names(sq->host, want, sizeof(want));
		names(host, got, sizeof(got));
		fail_msg("host model: expected %s, reported %s", want, got);
	}
	if (emu != sq->emu) {
		names(sq->emu, want, sizeof(want));
		names(emu, got, sizeof(got));
		fail_msg("emulator model: expected %s, reported %s", want, got);
	}
	/* A difference is a rule MODEL.md writes down, never an accident. */
	if ((host != emu) != (sq->differs != NULL))
		fail_msg("the models %s, but the table %s", host != emu ? "differ" : "agree",
			 sq->differs ? "names a difference" : "names none");
}

int main(void)
{
	struct CMUnitTest tests[sizeof(seqs) / sizeof(seqs[0])];

	for (size_t i = 0; i < sizeof(seqs) / sizeof(seqs[0]); i++)
		tests[i] = (struct CMUnitTest){
			.name = seqs[i].name, .test_func = same_sequence_same_verdict,
			.setup_func = host_setup, .teardown_func = host_teardown,
			.initial_state = (void *)&seqs[i],
		};
	return host_run_groups("model agreement", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
