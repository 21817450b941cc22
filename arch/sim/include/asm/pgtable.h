/*
 * Host: arch/arm's page tables unchanged, except that set_pte_ext() first
 * offers the model an interrupt point (after the kmap index push, before
 * the PTE store), so tests can land an IRQ there. pte_clear() keeps the
 * ARM function as is.
 */
#ifndef SIM_ASM_PGTABLE_H
#define SIM_ASM_PGTABLE_H

#define set_pte_ext arm_set_pte_ext
#include_next <asm/pgtable.h>
#undef set_pte_ext

void sim_irq_before_pte_write(pte_t *ptep);

static inline void set_pte_ext(pte_t *ptep, pte_t pte)
{
	sim_irq_before_pte_write(ptep);
	arm_set_pte_ext(ptep, pte);
}

#endif
