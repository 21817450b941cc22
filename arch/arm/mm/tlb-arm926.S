/*
 * ARM926EJ-S TLB maintenance (CP15 c8). The ARM926 has one unified main TLB
 * (the I and D micro-TLBs are refilled from it), and the I and D forms of a
 * c8 operation both act on it: either by-MVA form alone would do. Both are
 * kept so the sequence stays right on ARMv5 cores with split TLBs; the asm
 * mutants in tools/vivt-emu show each alone is redundant here.
 */
	.text
	.arm

/* void local_flush_tlb_kernel_page(unsigned long vaddr)
 * Invalidate the entry for vaddr by MVA, D form (c8,c6,1) and I form (c8,c5,1). */
	.global local_flush_tlb_kernel_page
local_flush_tlb_kernel_page:
	mcr	p15, 0, r0, c8, c6, 1
	mcr	p15, 0, r0, c8, c5, 1
	bx	lr

/* void local_flush_tlb_all(void): invalidate every TLB entry (c8,c7,0). */
	.global local_flush_tlb_all
local_flush_tlb_all:
	mov	r0, #0
	mcr	p15, 0, r0, c8, c7, 0
	bx	lr
