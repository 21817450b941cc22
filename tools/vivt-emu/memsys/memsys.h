/*
 * The ARM926EJ-S memory system as vivt-emu models it, and the oracle's view
 * of it.  This header is the contract between the machine (Unicorn, devices,
 * run loop: machine/, cpu/, hw/) and the memory-system model (dcache.c,
 * icache.c, wbuf.c, tlb.c, walker.c, memsys.c and oracle.c, all here).
 *
 * The guest runs in Unicorn against coherent RAM: what a machine without
 * caches would hold.  The model never changes what the guest sees.  It keeps,
 * per 32-bit word, a version stamp of the newest write (the shadow), of what
 * physical memory holds, and of what each cache line holds, and it reports
 * every access whose stamp the real ARM926 would not have matched.
 */
#ifndef VIVT_EMU_MEMSYS_H
#define VIVT_EMU_MEMSYS_H

#include <stdbool.h>
#include <stdint.h>
#include "../../../arch/sim/include/asm/report-kinds.h"

/* The kinds (arch/sim/include/asm/report-kinds.h: shared with the host model). */
enum ms_report_kind {
	MS_STALE_READ = ARM926_STALE_READ,
	MS_LOST_WRITE_INVAL = ARM926_LOST_WRITE_INVAL,
	MS_LOST_WRITE_WB = ARM926_LOST_WRITE_WB,
	MS_UNCLEAN_WALK = ARM926_UNCLEAN_WALK,
	MS_STALE_TLB = ARM926_STALE_TLB,
	MS_STALE_IFETCH = ARM926_STALE_IFETCH,
	MS_DMA_STALE_MEMORY = ARM926_DMA_STALE_MEMORY,
	MS_DMA_STALE_LINE = ARM926_DMA_STALE_LINE,
	MS_DMA_CLOBBER = ARM926_DMA_CLOBBER,
	MS_REPORT_KINDS = ARM926_NR_REPORTS	/* REMAP_*: the host's only, never reported here */
};

struct ms_report {
	enum ms_report_kind kind;
	uint32_t va;		/* virtual address of the access or operation */
	uint32_t pa;		/* physical address concerned */
	uint32_t pc;		/* as passed in by the machine */
	const char *detail;	/* one line, model's own words (static or per-call) */
	uint32_t writer_pc;	/* PC of the newest store to the word concerned
				   (for a walk or TLB report: to the descriptor),
				   0 if nothing stored there yet */
};

typedef void (*ms_report_fn)(void *ctx, const struct ms_report *r);

enum ms_repl { MS_REPL_ROUND_ROBIN, MS_REPL_RANDOM };

struct ms_config {
	uint8_t *ram;		/* the coherent RAM Unicorn runs on */
	uint32_t ram_base;	/* its physical base and size */
	uint32_t ram_size;
	uint32_t ctype;		/* cache type register value the CPU reports */
	uint32_t dcache_bytes;	/* 0: from ctype; else override (power of 2, >= 1 KiB) */
	uint32_t icache_bytes;	/* 0: from ctype */
	enum ms_repl repl;
	uint32_t seed;		/* random replacement and TLB capacity evictions */
	ms_report_fn report;
	void *report_ctx;
};

struct ms_stats {
	uint64_t loads, stores, fetches;
	uint64_t dline_fills, dwritebacks, devictions, iline_fills;
	uint64_t cp15_ops, walks, tlb_misses, wb_drains;
	uint64_t reports[MS_REPORT_KINDS];
};

struct memsys;

/* A new model with empty caches, empty TLB, MMU and caches off; NULL after
 * a message on stderr when cfg is unusable (RAM, ctype, sizes). */
struct memsys *ms_new(const struct ms_config *cfg);
void ms_free(struct memsys *ms);

/*
 * CPU events, in program order.  pc is the instruction's address (exact when
 * the machine knows it).  va is the virtual address the CPU issued.
 * Accesses that translate outside RAM (devices) are counted and ignored.
 */
void ms_load(struct memsys *ms, uint32_t va, unsigned size, uint32_t pc);
void ms_store(struct memsys *ms, uint32_t va, unsigned size, uint32_t pc);
void ms_fetch(struct memsys *ms, uint32_t va, unsigned size, uint32_t pc);

/*
 * A read of guest memory by an outside agent that sees physical memory
 * only, not the D-cache nor the write buffer: the semihosting debugger
 * reading an SVC's parameter block or string.  va translates through the
 * current tables; a word whose memory copy is not the newest write is a
 * stale read reported at pc (the SVC's).  Not counted as a CPU load.
 */
void ms_debug_read(struct memsys *ms, uint32_t va, unsigned size, uint32_t pc);

/*
 * A bus master (DMA controller, peripheral DMA) reads or writes physical
 * memory, never the D-cache nor the write buffer, at [pa, pa + size)
 * (word granular).  A read of a word memory does not hold the newest
 * version of is a report; a write makes memory and the shadow newest and
 * marks the words as a device's, so that a load hitting an older line, or
 * an older line written back over them, is reported as a DMA rule.  pc is
 * the CPU instruction that started the transfer.  Words outside RAM are
 * ignored (the device model reports its own bus errors).
 */
void ms_dma_read(struct memsys *ms, uint32_t pa, uint32_t size, uint32_t pc);
void ms_dma_write(struct memsys *ms, uint32_t pa, uint32_t size, uint32_t pc);

/*
 * An MCR to CP15 (c1, c2, c3, c7, c8, c9, c10 ...), with its operand, after
 * the machine has checked the condition passed.  Registers the model keeps
 * (SCTLR, TTBR0, DACR) follow these writes.
 */
void ms_cp15_write(struct memsys *ms, unsigned crn, unsigned opc1,
		   unsigned crm, unsigned opc2, uint32_t val, uint32_t pc);

/*
 * An MRC from CP15 that the model answers: c7,c10,3 (test and clean) and
 * c7,c14,3 (test, clean and invalidate) clean one dirty line each and
 * return the NZCV flags in bits 31:28 (Z set once nothing is dirty).
 * Returns false when the model does not own this register.
 */
bool ms_cp15_read(struct memsys *ms, unsigned crn, unsigned opc1,
		  unsigned crm, unsigned opc2, uint32_t pc, uint32_t *val);

/*
 * True once after a store to a descriptor that a translation was walked
 * from.  The guest translates through the machine's own CPU emulation,
 * which caches translations as it likes; the machine drops them all when
 * this says so, before the next block, so that the guest always sees the
 * current tables, as it sees coherent RAM.  Whether an ARM926 would have
 * used the old translation is the model's verdict alone (stale TLB).
 */
bool ms_tlb_changed(struct memsys *ms);

/* Counters since ms_new or the last ms_stats_reset. */
void ms_get_stats(const struct memsys *ms, struct ms_stats *out);
void ms_stats_reset(struct memsys *ms);

/* Human-readable name of a report kind, e.g. "stale read". */
const char *ms_report_kind_name(enum ms_report_kind kind);

#endif
