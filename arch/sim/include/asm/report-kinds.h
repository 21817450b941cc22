/*
 * The ARM926EJ-S coherence violations, one list for both models that look
 * for them: the emulator's memory system (memsys.h, every guest access) and
 * the host model (arch/sim, the kmap code's native accesses).  A report of
 * either names its kind with arm926_report_name(), so one bug reads the
 * same in both proofs.  Where the two models judge a sequence differently,
 * MODEL.md says so and why; tests/host/test_model_agree.c holds them to it.
 *
 * Plain C with no dependencies. It lives with the host model, as the
 * product's side of the two: the emulator, a tool, includes it from here
 * (the arrows run from tools to the product, never back).
 */
#ifndef ARM926_REPORT_KINDS_H
#define ARM926_REPORT_KINDS_H

enum arm926_report {
	ARM926_STALE_READ,		/* a load returned data older than the newest write */
	ARM926_LOST_WRITE_INVAL,	/* an invalidate dropped dirty data nobody else holds */
	ARM926_LOST_WRITE_WB,		/* a write-back overwrote newer data (another alias) */
	ARM926_UNCLEAN_WALK,		/* the walker read a descriptor not cleaned + drained */
	ARM926_STALE_TLB,		/* a TLB entry was used after its descriptor changed */
	ARM926_STALE_IFETCH,		/* an executed instruction older than its newest write */
	/* A DMA bus master (memory only) against the D-cache and write buffer. */
	ARM926_DMA_STALE_MEMORY,	/* a device read memory while a line or the write buffer held newer data */
	ARM926_DMA_STALE_LINE,		/* a load hit a line older than what a device wrote */
	ARM926_DMA_CLOBBER,		/* a write-back landed on what a device wrote */
	/*
	 * Judged when a kmap window's PTE changes, before any access: the
	 * host model's rules (MODEL.md, "Where the two models differ").
	 */
	ARM926_REMAP_DIRTY,		/* PTE changed while the old page's lines were dirty */
	ARM926_REMAP_VALID,		/* PTE changed while the window held another page's lines */
	ARM926_NR_REPORTS
};

/* Human-readable name of a kind, e.g. "stale read". */
static inline const char *arm926_report_name(enum arm926_report kind)
{
	static const char *const names[ARM926_NR_REPORTS] = {
		[ARM926_STALE_READ] = "stale read",
		[ARM926_LOST_WRITE_INVAL] = "lost write (invalidate)",
		[ARM926_LOST_WRITE_WB] = "lost write (write-back)",
		[ARM926_UNCLEAN_WALK] = "unclean table walk",
		[ARM926_STALE_TLB] = "stale TLB entry",
		[ARM926_STALE_IFETCH] = "stale instruction fetch",
		[ARM926_DMA_STALE_MEMORY] = "DMA read of stale memory",
		[ARM926_DMA_STALE_LINE] = "stale read after DMA",
		[ARM926_DMA_CLOBBER] = "write-back over DMA",
		[ARM926_REMAP_DIRTY] = "remap over dirty lines",
		[ARM926_REMAP_VALID] = "remap over valid lines",
	};
	return (unsigned)kind < ARM926_NR_REPORTS ? names[kind] : "unknown report";
}

#endif
