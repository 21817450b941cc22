/* ARM926EJ-S TLB maintenance (CP15 c8). The I and D TLBs are separate. */
	.text
	.arm

/* void local_flush_tlb_kernel_page(unsigned long vaddr)
 * Invalidate D TLB entry by MVA (c8,c6,1) and I TLB entry by MVA (c8,c5,1). */
	.global local_flush_tlb_kernel_page
local_flush_tlb_kernel_page:
	mcr	p15, 0, r0, c8, c6, 1
	mcr	p15, 0, r0, c8, c5, 1
	bx	lr

/* void local_flush_tlb_all(void): invalidate I and D TLBs (c8,c7,0). */
	.global local_flush_tlb_all
local_flush_tlb_all:
	mov	r0, #0
	mcr	p15, 0, r0, c8, c7, 0
	bx	lr
