/*
 * Boot page tables and MMU enable.
 *
 *   0 .. 1 MiB         small pages, page 0 left unmapped to catch NULL
 *   1 MiB .. lowmem    sections, cacheable write-back (identity)
 *   lowmem .. RAM end  unmapped: highmem has no permanent mapping
 *   board I/O          sections, uncached and unbuffered (identity)
 *   exception stacks   the MiB(s) holding them in small pages, each stack's
 *                      guard page below it left unmapped
 *   STACK_AREA_BASE    thread stacks (stack.c), their own second-level tables
 *   PKMAP_BASE         pkmap pool, its own second-level table
 *   FIXADDR_START      kmap_local slots and the high vector page
 *
 * The tables are written with caches off, so they reach memory directly;
 * later changes go through set_pte_ext().
 */
#include <string.h>
#include <stdint.h>
#include <asm/memory.h>
#include <asm/pgtable.h>
#include <asm/highmem.h>
#include <asm/fixmap.h>
#include <asm/cacheflush.h>
#include <asm/tlbflush.h>
#include <asm/cp15.h>
#include <asm/mach.h>
#include <lokal/bug.h>

#define L1_ENTRIES      4096
#define DOMAIN_KERNEL   0
#define DACR_CLIENT(d)  (1u << (2 * (d)))

_Static_assert(LAST_PKMAP <= 512 && (LAST_PKMAP & (LAST_PKMAP - 1)) == 0,
	       "LAST_PKMAP must be a power of two of at most 512");
_Static_assert(PKMAP_BASE + 512 * PAGE_SIZE <= FIXADDR_START, "pkmap overlaps fixmap");
_Static_assert(FIXADDR_TOP - (KM_MAX_IDX - 1) * PAGE_SIZE >= FIXADDR_START, "fixmap too small");
_Static_assert(FIXADDR_TOP < VECTORS_BASE, "fixmap slots overlap the vector page");
_Static_assert(STACK_AREA_BASE + STACK_AREA_SIZE <= PKMAP_BASE, "the stack area overlaps pkmap");
_Static_assert(STACK_AREA_SIZE % SECTION_SIZE == 0, "the stack area is whole MiBs");

#define STACK_AREA_MB   (STACK_AREA_SIZE >> SECTION_SHIFT)
#define SPLIT_TABLES    2       /* lowmem MiBs the exception stacks' guard pages may fall in */

static uint32_t l1_table[L1_ENTRIES] __attribute__((aligned(16384)));
static pte_t first_mb_pt[PTRS_PER_COARSE] __attribute__((aligned(1024)));
static pte_t pkmap_pt[2 * PTRS_PER_COARSE] __attribute__((aligned(1024)));
static pte_t fixmap_pt[PTRS_PER_COARSE] __attribute__((aligned(1024)));
static pte_t stack_area_pt[STACK_AREA_MB * PTRS_PER_COARSE] __attribute__((aligned(1024)));
static pte_t split_pt[SPLIT_TABLES][PTRS_PER_COARSE] __attribute__((aligned(1024)));
static uint8_t vector_page[PAGE_SIZE] __attribute__((aligned(PAGE_SIZE)));

pte_t *pkmap_page_table = pkmap_pt;

extern const char __vectors_start[], __vectors_end[];
extern char __stack_und_guard[], __stack_abt_guard[], __stack_irq_guard[], __stack_fiq_guard[],
	__stack_svc_guard[];

pte_t *virt_to_kpte(unsigned long vaddr)
{
	if (vaddr >= PKMAP_BASE && vaddr < PKMAP_BASE + LAST_PKMAP * PAGE_SIZE)
		return &pkmap_pt[(vaddr - PKMAP_BASE) >> PAGE_SHIFT];
	if (vaddr >= FIXADDR_START)
		return &fixmap_pt[(vaddr - FIXADDR_START) >> PAGE_SHIFT];
	if (vaddr >= STACK_AREA_BASE && vaddr < STACK_AREA_BASE + STACK_AREA_SIZE)
		return &stack_area_pt[(vaddr - STACK_AREA_BASE) >> PAGE_SHIFT];
	panic("virt_to_kpte: 0x%08lx is not a pkmap, fixmap or stack-area address", vaddr);
}

static uint32_t coarse(const pte_t *table)
{
	return __pa(table) | PMD_TYPE_COARSE | PMD_BIT4 | PMD_DOMAIN(DOMAIN_KERNEL);
}

static uint32_t section(uint32_t pa, uint32_t attrs)
{
	return (pa & ~(SECTION_SIZE - 1)) | PMD_TYPE_SECT | PMD_BIT4 |
	       PMD_DOMAIN(DOMAIN_KERNEL) | PMD_SECT_AP_RW | attrs;
}

/*
 * Unmap one lowmem page: its MiB goes from a section to small pages (same
 * attributes) first. The exception stacks are reached through the direct
 * map alone, so a hole in it is all a guard page needs.
 */
static void unmap_lowmem_page(unsigned long va)
{
	static unsigned int nsplit;
	uint32_t *l1 = &l1_table[va >> SECTION_SHIFT];
	pte_t *pt;

	if ((*l1 & 3u) == PMD_TYPE_SECT) {
		unsigned long base = va & ~(SECTION_SIZE - 1);

		BUG_ON(nsplit == SPLIT_TABLES);
		pt = split_pt[nsplit++];
		for (unsigned int i = 0; i < PTRS_PER_COARSE; i++)
			pt[i] = pfn_pte(__pa((void *)(base + i * PAGE_SIZE)) >> PAGE_SHIFT, PAGE_KERNEL);
		*l1 = coarse(pt);
	}
	pt = __va(*l1 & ~0x3ffu);
	pt[(va >> PAGE_SHIFT) & (PTRS_PER_COARSE - 1)] = 0;
}

static void build_tables(void)
{
	static char *const guards[] = { __stack_und_guard, __stack_abt_guard, __stack_irq_guard,
					__stack_fiq_guard, __stack_svc_guard };
	unsigned long va;
	unsigned int i, mb;

	memset(l1_table, 0, sizeof(l1_table));

	/* First MiB in pages so that page 0 (NULL) faults. */
	for (i = 1; i < PTRS_PER_COARSE; i++)
		first_mb_pt[i] = pfn_pte((PHYS_OFFSET >> PAGE_SHIFT) + i, PAGE_KERNEL);
	l1_table[PAGE_OFFSET >> SECTION_SHIFT] = coarse(first_mb_pt);

	for (va = PAGE_OFFSET + SECTION_SIZE; va < LOWMEM_END; va += SECTION_SIZE)
		l1_table[va >> SECTION_SHIFT] =
			section(__pa((void *)va), PMD_SECT_C | PMD_SECT_B);

	for (i = 0; i < board_nr_io_regions; i++)
		for (mb = 0; mb < board_io_regions[i].size >> SECTION_SHIFT; mb++) {
			uint32_t pa = board_io_regions[i].base + (mb << SECTION_SHIFT);
			l1_table[pa >> SECTION_SHIFT] = section(pa, 0);
		}

	l1_table[PKMAP_BASE >> SECTION_SHIFT] = coarse(&pkmap_pt[0]);
	l1_table[(PKMAP_BASE >> SECTION_SHIFT) + 1] = coarse(&pkmap_pt[PTRS_PER_COARSE]);
	l1_table[FIXADDR_START >> SECTION_SHIFT] = coarse(fixmap_pt);
	for (mb = 0; mb < STACK_AREA_MB; mb++)
		l1_table[(STACK_AREA_BASE >> SECTION_SHIFT) + mb] = coarse(&stack_area_pt[mb * PTRS_PER_COARSE]);
	for (i = 0; i < sizeof(guards) / sizeof(guards[0]); i++)
		unmap_lowmem_page((unsigned long)guards[i]);

	/* High vectors: a lowmem page holding a copy of entry.S's table. */
	memcpy(vector_page, __vectors_start, (size_t)(__vectors_end - __vectors_start));
	fixmap_pt[(VECTORS_BASE - FIXADDR_START) >> PAGE_SHIFT] =
		pfn_pte(__pa(vector_page) >> PAGE_SHIFT, PAGE_KERNEL);
}

/* Build the tables and turn on MMU, caches, write buffer and high vectors. */
void arch_mmu_init(void)
{
	uint32_t cr;

	build_tables();
	CP15_WRITE(c2, 0, c0, 0, __pa(l1_table));       /* TTBR */
	CP15_WRITE(c3, 0, c0, 0, DACR_CLIENT(DOMAIN_KERNEL));
	CP15_WRITE(c8, 0, c7, 0, 0);                    /* invalidate TLBs */
	CP15_WRITE(c7, 0, c7, 0, 0);                    /* invalidate I+D caches */
	CP15_WRITE(c7, 0, c10, 4, 0);                   /* drain write buffer */

	cr = get_cr();
	cr &= ~(CR_S | CR_R | CR_RR);
	cr |= CR_M | CR_A | CR_C | CR_W | CR_I | CR_V;
	set_cr(cr);
	__asm__ volatile("nop\n\tnop\n\tnop" ::: "memory");
}
