/*
 * ARMv5 short-descriptor page tables, as the ARM926EJ-S walks them.
 *
 * Shared by arch/arm and arch/sim: the simulated arch supplies its own
 * memory.h and cache/TLB primitives but reuses this file, so the rule
 * "every table write is cleaned to memory" is the same code in both.
 */
#ifndef ASM_PGTABLE_H
#define ASM_PGTABLE_H

#include <stdint.h>
#include <asm/memory.h>
#include <asm/cacheflush.h>

typedef uint32_t pte_t;
typedef uint32_t pgprot_t;

/* First-level descriptors: bits [1:0] give the type. */
#define PMD_TYPE_FAULT          0x0u
#define PMD_TYPE_COARSE         0x1u
#define PMD_TYPE_SECT           0x2u
#define PMD_BIT4                (1u << 4)
#define PMD_DOMAIN(d)           ((uint32_t)(d) << 5)
#define PMD_SECT_B              (1u << 2)
#define PMD_SECT_C              (1u << 3)
#define PMD_SECT_AP_RW          (1u << 10)    /* kernel RW, user none */
#define SECTION_SHIFT           20
#define SECTION_SIZE            (1ul << SECTION_SHIFT)

/* Second-level small-page descriptors. */
#define PTE_TYPE_SMALL          0x2u
#define PTE_BUFFERABLE          (1u << 2)
#define PTE_CACHEABLE           (1u << 3)
#define PTE_AP_KRW              (0x55u << 4)  /* all four subpages: kernel RW */
#define PTRS_PER_COARSE         256

#define PAGE_KERNEL             (PTE_TYPE_SMALL | PTE_AP_KRW | PTE_CACHEABLE | PTE_BUFFERABLE)
#define PAGE_KERNEL_NOCACHE     (PTE_TYPE_SMALL | PTE_AP_KRW)
#define PTE_PROT_MASK           (PAGE_SIZE - 1)

static inline pte_t pfn_pte(unsigned long pfn, pgprot_t prot)
{
	return (pte_t)((pfn << PAGE_SHIFT) | (prot & PTE_PROT_MASK));
}

static inline unsigned long pte_pfn(pte_t pte)
{
	return pte >> PAGE_SHIFT;
}

static inline int pte_none(pte_t pte)
{
	return pte == 0;
}

static inline int pte_cacheable(pte_t pte)
{
	return (pte & PTE_CACHEABLE) != 0;
}

/*
 * Write one page-table entry so the hardware table walker sees it.
 * The ARM926 walker reads memory, not the D-cache, and the tables live in
 * write-back lowmem: the entry's line must be cleaned and the write buffer
 * drained before any TLB miss may use it (what Linux's cpu_arm926_set_pte_ext
 * does). Every table write in Lokal goes through here.
 */
static inline void set_pte_ext(pte_t *ptep, pte_t pte)
{
	*ptep = pte;
	cpu_dcache_clean_area(ptep, sizeof(*ptep));
	cpu_drain_write_buffer();
}

static inline void pte_clear(pte_t *ptep)
{
	set_pte_ext(ptep, 0);
}

/* The second-level entry that maps a pkmap or fixmap address. */
pte_t *virt_to_kpte(unsigned long vaddr);

#endif
