/*
 * ARM926EJ-S cache maintenance (ARM926EJ-S TRM, CP15 c7). The D-cache is
 * 4-way VIVT with 32-byte lines; by-MVA operations act on one line.
 */
#define CACHE_LINE	32

	.text
	.arm

/* void __cpuc_flush_dcache_area(void *addr, size_t size)
 * Clean + invalidate D lines by MVA (MCR p15,0,Rd,c7,c14,1), then drain.
 * Four lines per iteration while whole 128-byte blocks remain: a page
 * is 128 lines, and every kmap teardown walks one. */
	.global __cpuc_flush_dcache_area
__cpuc_flush_dcache_area:
	add	r1, r0, r1
	bic	r0, r0, #(CACHE_LINE - 1)
	sub	r2, r1, #(4 * CACHE_LINE)
1:	cmp	r0, r2
	bhi	2f
	mcr	p15, 0, r0, c7, c14, 1
	add	r0, r0, #CACHE_LINE
	mcr	p15, 0, r0, c7, c14, 1
	add	r0, r0, #CACHE_LINE
	mcr	p15, 0, r0, c7, c14, 1
	add	r0, r0, #CACHE_LINE
	mcr	p15, 0, r0, c7, c14, 1
	add	r0, r0, #CACHE_LINE
	b	1b
2:	cmp	r0, r1
	mcrlo	p15, 0, r0, c7, c14, 1
	addlo	r0, r0, #CACHE_LINE
	blo	2b
	mov	r0, #0
	mcr	p15, 0, r0, c7, c10, 4		/* drain write buffer */
	bx	lr

/* void cpu_dcache_clean_area(void *addr, size_t size)
 * Clean D lines by MVA (MCR p15,0,Rd,c7,c10,1): memory gets the data,
 * the lines stay valid. Used after every page-table write. */
	.global cpu_dcache_clean_area
cpu_dcache_clean_area:
	add	r1, r0, r1
	bic	r0, r0, #(CACHE_LINE - 1)
1:	mcr	p15, 0, r0, c7, c10, 1
	add	r0, r0, #CACHE_LINE
	cmp	r0, r1
	blo	1b
	bx	lr

/* void cpu_dcache_inv_area(void *addr, size_t size)
 * Invalidate D lines by MVA (MCR p15,0,Rd,c7,c6,1): dirty data is dropped. */
	.global cpu_dcache_inv_area
cpu_dcache_inv_area:
	add	r1, r0, r1
	bic	r0, r0, #(CACHE_LINE - 1)
1:	mcr	p15, 0, r0, c7, c6, 1
	add	r0, r0, #CACHE_LINE
	cmp	r0, r1
	blo	1b
	bx	lr

/* void __cpuc_flush_kern_all(void)
 * Test, clean and invalidate the whole D-cache (MRC p15,0,APSR_nzcv,c7,c14,3
 * until Z is set), invalidate the I-cache (c7,c5,0), drain (c7,c10,4). */
	.global __cpuc_flush_kern_all
__cpuc_flush_kern_all:
1:	mrc	p15, 0, APSR_nzcv, c7, c14, 3
	bne	1b
	mov	r0, #0
	mcr	p15, 0, r0, c7, c5, 0
	mcr	p15, 0, r0, c7, c10, 4
	bx	lr

/* void __cpuc_flush_icache_all(void): invalidate I-cache (c7,c5,0). */
	.global __cpuc_flush_icache_all
__cpuc_flush_icache_all:
	mov	r0, #0
	mcr	p15, 0, r0, c7, c5, 0
	bx	lr

/* void cpu_drain_write_buffer(void): drain write buffer (c7,c10,4). */
	.global cpu_drain_write_buffer
cpu_drain_write_buffer:
	mov	r0, #0
	mcr	p15, 0, r0, c7, c10, 4
	bx	lr
