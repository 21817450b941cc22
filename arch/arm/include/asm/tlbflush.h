/*
 * ARM926EJ-S TLB maintenance (CP15 c8). Target: arch/arm/mm/tlb-arm926.S;
 * host: the TLB model in arch/sim.
 */
#ifndef ASM_TLBFLUSH_H
#define ASM_TLBFLUSH_H

/* Invalidate the I and D TLB entries that may translate vaddr. */
void local_flush_tlb_kernel_page(unsigned long vaddr);
/* Invalidate every TLB entry. */
void local_flush_tlb_all(void);

#endif
