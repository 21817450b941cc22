/*
 * ARM926EJ-S (VIVT) hooks for the generic highmem code in firmware/mm.
 *
 * A virtually tagged D-cache keeps data under the virtual address it was
 * written through. Before a kmap slot's PTE is cleared or replaced, the
 * slot's lines must be written back and dropped, or the data is lost (or a
 * later user of the slot reads the previous page's lines). After any PTE
 * change, the TLB entry for that address must go.
 *
 * Shared with arch/sim, which provides the primitives behind these hooks.
 */
#ifndef ASM_HIGHMEM_H
#define ASM_HIGHMEM_H

#include <generated/config.h>
#include <asm/memory.h>
#include <asm/pgtable.h>
#include <asm/cacheflush.h>
#include <asm/tlbflush.h>
#include <asm/kmap_size.h>

#define LAST_PKMAP              CONFIG_LAST_PKMAP
#define LAST_PKMAP_MASK         (LAST_PKMAP - 1)
#define PKMAP_NR(virt)          (((unsigned long)(virt) - PKMAP_BASE) >> PAGE_SHIFT)
#define PKMAP_ADDR(nr)          ((unsigned long)PKMAP_BASE + ((unsigned long)(nr) << PAGE_SHIFT))

/* pkmap's own second-level table: LAST_PKMAP contiguous entries. */
extern pte_t *pkmap_page_table;

/*
 * Each maintenance call below sits on its own line: each is a mutant in
 * mutants.list beside this file, which tests/host/mutants.sh
 * deletes one at a time, expecting a host test to fail each time.
 */

/* Before pkmap slots are recycled, a VIVT cache must lose every alias. */
static inline void flush_cache_kmaps(void)
{
	if (cache_is_vivt())
		__cpuc_flush_kern_all();
}
#define flush_cache_kmaps flush_cache_kmaps

/* A whole-pool TLB flush is cheaper than LAST_PKMAP single entries. */
static inline void flush_tlb_kmaps(void)
{
	local_flush_tlb_all();
}
#define flush_tlb_kmaps flush_tlb_kmaps

/*
 * VIVT: a highmem page that already has a pkmap address must be reached
 * through that address only, so kmap_local hands out the pkmap address
 * instead of making a second, incoherent alias.
 */
#define ARCH_NEEDS_KMAP_HIGH_GET 1
struct page;
void *kmap_high_get(struct page *page);

static inline void *arch_kmap_local_high_get(struct page *page)
{
	return kmap_high_get(page);
}
#define arch_kmap_local_high_get arch_kmap_local_high_get

/*
 * The slot's PTE was just written: drop whatever translation the TLB holds
 * for it (a stale one would keep reaching the previous page).
 */
static inline void arch_kmap_local_post_map(unsigned long vaddr, pte_t pteval)
{
	(void)pteval;
	local_flush_tlb_kernel_page(vaddr);
}
#define arch_kmap_local_post_map arch_kmap_local_post_map

/*
 * The slot is about to lose its PTE: write its dirty lines back while the
 * translation still exists and drop them, so the next page mapped here
 * does not hit this page's data under the same virtual tag.
 */
static inline void arch_kmap_local_pre_unmap(unsigned long vaddr)
{
	if (cache_is_vivt())
		__cpuc_flush_dcache_area((void *)vaddr, PAGE_SIZE);
}
#define arch_kmap_local_pre_unmap arch_kmap_local_pre_unmap

/* The PTE is gone: so must be the TLB entry, or the slot stays reachable. */
static inline void arch_kmap_local_post_unmap(unsigned long vaddr)
{
	local_flush_tlb_kernel_page(vaddr);
}
#define arch_kmap_local_post_unmap arch_kmap_local_post_unmap

#endif
