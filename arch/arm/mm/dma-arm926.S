/*
 * ARM926EJ-S D-cache operations for streaming DMA (asm/cacheflush.h's
 * dmac_*_range, called by firmware/mm/dma-mapping.c): the by-MVA loops of
 * cache-arm926.S, each followed by a drain of the write buffer (c7,c10,4),
 * where a write-back waits until drained: a device reads memory.
 */
	.text
	.arm

/* void dmac_clean_range(const void *start, size_t size) */
	.global dmac_clean_range
dmac_clean_range:
	push	{r4, lr}
	bl	cpu_dcache_clean_area
	pop	{r4, lr}
	b	cpu_drain_write_buffer

/* void dmac_inv_range(const void *start, size_t size) */
	.global dmac_inv_range
dmac_inv_range:
	push	{r4, lr}
	bl	cpu_dcache_inv_area
	pop	{r4, lr}
	b	cpu_drain_write_buffer

/* void dmac_flush_range(const void *start, size_t size): it drains already. */
	.global dmac_flush_range
dmac_flush_range:
	b	__cpuc_flush_dcache_area
