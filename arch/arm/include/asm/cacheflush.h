/*
 * ARM926EJ-S cache maintenance primitives, each a CP15 c7 operation or a
 * loop of them. Implemented in arch/arm/mm/cache-arm926.S on target and by
 * the VIVT cache model in arch/sim on the host.
 */
#ifndef ASM_CACHEFLUSH_H
#define ASM_CACHEFLUSH_H

#include <stddef.h>

/* Clean + invalidate the D-cache lines covering [addr, addr+size). */
void __cpuc_flush_dcache_area(void *addr, size_t size);
/* Clean (write back, keep valid) the D-cache lines covering the range. */
void cpu_dcache_clean_area(void *addr, size_t size);
/* Invalidate (discard) the D-cache lines covering the range. */
void cpu_dcache_inv_area(void *addr, size_t size);
/* Clean + invalidate the whole D-cache (test-clean-invalidate loop). */
void __cpuc_flush_kern_all(void);
/* Invalidate the whole I-cache. */
void __cpuc_flush_icache_all(void);
/* Drain the write buffer: earlier writes have reached memory on return. */
void cpu_drain_write_buffer(void);

/* D-cache line size (the ARM926's 32 bytes). */
#define L1_CACHE_BYTES  32

/*
 * For streaming DMA (firmware/mm/dma-mapping.c), on the lines covering
 * [start, start+size); each returns with the write buffer drained, so a
 * device reading memory next sees every write-back.
 */
/* Clean: memory gets the dirty data, the lines stay valid. */
void dmac_clean_range(const void *start, size_t size);
/* Invalidate: the lines are dropped, dirty or not (the caller cleaned partial ones). */
void dmac_inv_range(const void *start, size_t size);
/* Clean and invalidate. */
void dmac_flush_range(const void *start, size_t size);

/* The ARM926 D-cache is virtually indexed and virtually tagged. */
static inline int cache_is_vivt(void)
{
	return 1;
}

#endif
