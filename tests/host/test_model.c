/*
 * The cache/TLB/walker model itself: each deliberately wrong maintenance
 * sequence is reported as its violation, and the right sequence is not.
 * These call the arch primitives directly, as the kmap code would.
 */
#include <stdio.h>
#include "host_test.h"
#include <asm/cacheflush.h>
#include <asm/tlbflush.h>
#include <asm/irqflags.h>

#define SLOT(n)         __fix_to_virt(FIX_KMAP_BEGIN + (n))

static unsigned long va;
static pte_t *ptep;
static struct page *p, *q;

static void map_slot(pte_t *pt, unsigned long v, struct page *pg)
{
	set_pte_ext(pt, mk_pte(pg, PAGE_KERNEL));
	local_flush_tlb_kernel_page(v);
}

static void unmap_slot(pte_t *pt, unsigned long v)
{
	__cpuc_flush_dcache_area((void *)v, PAGE_SIZE);
	pte_clear(pt);
	local_flush_tlb_kernel_page(v);
}

static int model_setup(void **state)
{
	host_setup(state);
	va = SLOT(1);
	ptep = virt_to_kpte(va);
	p = host_alloc(ZONE_HIGHMEM);
	q = host_alloc(ZONE_HIGHMEM);
	sim_install_fault_handler();
	return 0;
}

#define MODEL_TEST(fn) cmocka_unit_test_setup_teardown(fn, model_setup, host_teardown)

/* Exactly one kind was reported, its text names what is needed; then forget it. */
static void expect_violation(enum sim_violation kind, const char *needle)
{
	unsigned int n = sim_violations(kind);

	if (n == 0 || sim_violations(SIM_NR_VIOLATIONS) != n)
		fail_msg("expected \"%s\" only, got %u of %u: %s", sim_violation_name(kind), n,
			 sim_violations(SIM_NR_VIOLATIONS), sim_last_violation());
	if (!strstr(sim_last_violation(), needle))
		fail_msg("violation text lacks \"%s\": %s", needle, sim_last_violation());
	if (!strstr(sim_last_violation(), "fixmap slot") && !strstr(sim_last_violation(), "pkmap slot") &&
	    !strstr(sim_last_violation(), "direct map pfn"))
		fail_msg("violation does not name the slot: %s", sim_last_violation());
	sim_clear_violations();
}

static void correct_sequence_is_clean(void **state)
{
	struct sim_stats st;

	(void)state;
	map_slot(ptep, va, p);
	(void)*(volatile char *)va;                     /* read-allocate: the page is cached */
	strcpy((char *)va, "correct");                  /* hits: dirty lines */
	unmap_slot(ptep, va);
	assert_string_equal((char *)sim_phys((phys_addr_t)page_to_pfn(p) << PAGE_SHIFT), "correct");
	map_slot(ptep, va, q);
	assert_int_equal(((char *)va)[0], 0);   /* q's content, not p's lines */
	unmap_slot(ptep, va);
	sim_get_stats(&st);
	assert_true(st.walks >= 2 && st.fills >= 2 * PAGE_SIZE / 32 && st.writebacks >= 1);
	assert_int_equal(sim_violations(SIM_NR_VIOLATIONS), 0);
}

static void write_then_clear_pte_without_clean_is_remap_over_dirty_lines(void **state)
{
	(void)state;
	map_slot(ptep, va, p);
	(void)*(volatile char *)va;
	strcpy((char *)va, "dirty");
	pte_clear(ptep);
	expect_violation(SIM_REMAP_DIRTY, "dirty line");
	/* And the data really did not reach RAM. */
	assert_int_equal(sim_phys((phys_addr_t)page_to_pfn(p) << PAGE_SHIFT)[0], 0);
}

static void invalidate_of_dirty_line_is_lost_write(void **state)
{
	(void)state;
	map_slot(ptep, va, p);
	(void)*(volatile char *)va;
	((char *)va)[64] = 7;
	cpu_dcache_inv_area((void *)va, PAGE_SIZE);
	expect_violation(SIM_LOST_WRITE, "dropped dirty line 2");
	unmap_slot(ptep, va);
}

static void pte_change_without_tlb_flush_is_stale_tlb(void **state)
{
	(void)state;
	map_slot(ptep, va, p);
	(void)*(volatile char *)va;                     /* TLB now holds p */
	__cpuc_flush_dcache_area((void *)va, PAGE_SIZE);
	set_pte_ext(ptep, mk_pte(q, PAGE_KERNEL));      /* no TLB invalidate */
	(void)*(volatile char *)va;
	expect_violation(SIM_STALE_TLB, "c8,c7,1");
	unmap_slot(ptep, va);
}

/* Reads only, so the window stayed open: the PTE change must still be noticed. */
static void pte_clear_without_tlb_flush_on_an_open_window_is_stale_tlb(void **state)
{
	(void)state;
	map_slot(ptep, va, p);
	(void)*(volatile char *)va;                     /* open: reads run natively */
	pte_clear(ptep);                                /* no dirty line: nothing lost */
	assert_int_equal(sim_violations(SIM_NR_VIOLATIONS), 0);
	(void)*(volatile char *)va;                     /* the TLB still maps p */
	expect_violation(SIM_STALE_TLB, "c8,c7,1");
	__cpuc_flush_dcache_area((void *)va, PAGE_SIZE);
	local_flush_tlb_kernel_page(va);
}

static void remap_without_invalidate_is_stale_lines(void **state)
{
	(void)state;
	memset(sim_phys((phys_addr_t)page_to_pfn(p) << PAGE_SHIFT), 'p', PAGE_SIZE);
	map_slot(ptep, va, p);
	assert_int_equal(*(volatile char *)va, 'p');    /* clean lines of p */
	pte_clear(ptep);
	local_flush_tlb_kernel_page(va);
	map_slot(ptep, va, q);
	expect_violation(SIM_STALE_LINES, "invalidate of the window");
	/* What real hardware would do: q read through the slot shows p's data. */
	assert_int_equal(*(volatile char *)va, 'p');
	unmap_slot(ptep, va);
}

static void do_read(void *arg)
{
	(void)*(volatile char *)arg;
}

static void uncleaned_pte_is_reported(void **state)
{
	(void)state;
	*ptep = mk_pte(p, PAGE_KERNEL);                 /* no clean, no drain */
	local_flush_tlb_kernel_page(va);
	/* The walker reads the old (empty) entry from memory: an abort. */
	EXPECT_ABORT(do_read, (void *)va, "data abort (read)");
	expect_violation(SIM_UNCLEANED_PTE, "clean of the PTE's line (c7,c10,1)");
	unmap_slot(ptep, va);
}

static void cleaned_but_undrained_pte_is_reported(void **state)
{
	(void)state;
	*ptep = mk_pte(p, PAGE_KERNEL);
	cpu_dcache_clean_area(ptep, sizeof(*ptep));     /* no drain */
	local_flush_tlb_kernel_page(va);
	EXPECT_ABORT(do_read, (void *)va, "data abort (read)");
	expect_violation(SIM_UNCLEANED_PTE, "drain of the write buffer (c7,c10,4)");
	cpu_drain_write_buffer();
	(void)*(volatile char *)va;                     /* now it translates */
	assert_int_equal(sim_violations(SIM_NR_VIOLATIONS), 0);
	unmap_slot(ptep, va);
}

static void read_through_alias_of_dirty_data_is_stale_read(void **state)
{
	unsigned long pk = PKMAP_ADDR(5);
	pte_t *pkp = &pkmap_page_table[5];

	(void)state;
	map_slot(pkp, pk, p);
	map_slot(ptep, va, p);
	(void)*(volatile char *)pk;
	strcpy((char *)pk, "newer");                    /* dirty under the pkmap alias */
	assert_int_equal(*(volatile char *)va, 0);      /* fixmap alias reads memory */
	expect_violation(SIM_STALE_READ, "holds newer data");
	unmap_slot(ptep, va);
	unmap_slot(pkp, pk);
}

static void hit_on_lines_older_than_memory_is_stale_read(void **state)
{
	unsigned long pk = PKMAP_ADDR(6);
	pte_t *pkp = &pkmap_page_table[6];

	(void)state;
	map_slot(pkp, pk, p);
	map_slot(ptep, va, p);
	(void)*(volatile char *)va;                     /* fixmap alias caches p */
	strcpy((char *)pk, "newer");
	cpu_dcache_clean_area((void *)pk, PAGE_SIZE);   /* memory updated ... */
	(void)*(volatile char *)va;                     /* ... but the alias hits old lines */
	expect_violation(SIM_STALE_READ, "older than what another alias wrote");
	unmap_slot(ptep, va);
	unmap_slot(pkp, pk);
}

static void uncached_mapping_reaches_ram_at_once(void **state)
{
	phys_addr_t pa = (phys_addr_t)page_to_pfn(p) << PAGE_SHIFT;

	(void)state;
	set_pte_ext(ptep, mk_pte(p, PAGE_KERNEL_NOCACHE));
	local_flush_tlb_kernel_page(va);
	strcpy((char *)va, "uncached");
	assert_string_equal((char *)sim_phys(pa), "uncached");
	strcpy((char *)sim_phys(pa) + 100, "from RAM");
	assert_string_equal((char *)va + 100, "from RAM");
	unmap_slot(ptep, va);
	assert_int_equal(sim_violations(SIM_NR_VIOLATIONS), 0);
}

static void uncached_read_beside_dirty_cached_alias_is_stale_read(void **state)
{
	unsigned long pk = PKMAP_ADDR(7);
	pte_t *pkp = &pkmap_page_table[7];

	(void)state;
	map_slot(pkp, pk, p);
	(void)*(volatile char *)pk;
	strcpy((char *)pk, "cached, dirty");
	set_pte_ext(ptep, mk_pte(p, PAGE_KERNEL_NOCACHE));
	local_flush_tlb_kernel_page(va);
	assert_int_equal(*(volatile char *)va, 0);
	expect_violation(SIM_STALE_READ, "pkmap slot 7");
	unmap_slot(ptep, va);
	unmap_slot(pkp, pk);
}

static void whole_cache_flush_covers_windows_and_tables(void **state)
{
	(void)state;
	*ptep = mk_pte(p, PAGE_KERNEL);
	__cpuc_flush_kern_all();                        /* cleans the PTE line too */
	local_flush_tlb_all();
	strcpy((char *)va, "flushed");
	__cpuc_flush_kern_all();
	assert_string_equal((char *)sim_phys((phys_addr_t)page_to_pfn(p) << PAGE_SHIFT), "flushed");
	pte_clear(ptep);
	local_flush_tlb_all();
	assert_int_equal(sim_violations(SIM_NR_VIOLATIONS), 0);
}

static phys_addr_t pa_of(struct page *pg)
{
	return (phys_addr_t)page_to_pfn(pg) << PAGE_SHIFT;
}

/* ARM926 is read-allocate: a store that misses goes to memory and allocates nothing. */
static void write_miss_goes_to_memory(void **state)
{
	struct sim_stats before, after;

	(void)state;
	map_slot(ptep, va, p);
	sim_get_stats(&before);
	strcpy((char *)va + 40, "missed");
	memset((char *)va + 1024, 'm', 2048);           /* rep stos, emulated line by line */
	sim_get_stats(&after);
	assert_string_equal((char *)sim_phys(pa_of(p)) + 40, "missed");
	assert_int_equal(sim_phys(pa_of(p))[1024 + 2047], 'm');
	assert_int_equal(after.fills, before.fills);
	assert_true(after.write_misses > before.write_misses);
	/* No line was allocated, so dropping the mapping loses nothing. */
	pte_clear(ptep);
	local_flush_tlb_kernel_page(va);
	assert_int_equal(sim_violations(SIM_NR_VIOLATIONS), 0);
}

/* After a read has allocated the lines, stores hit and stay in the cache. */
static void write_after_read_stays_in_the_cache(void **state)
{
	(void)state;
	map_slot(ptep, va, p);
	assert_int_equal(((volatile char *)va)[100], 0);
	strcpy((char *)va + 100, "cached");
	assert_int_equal(sim_phys(pa_of(p))[100], 0);
	cpu_dcache_clean_area((void *)va, PAGE_SIZE);
	assert_string_equal((char *)sim_phys(pa_of(p)) + 100, "cached");
	unmap_slot(ptep, va);
}

/* memcpy from one window to another: the source's reads allocate, the destination's stores miss. */
static void copy_reads_allocate_and_writes_miss(void **state)
{
	unsigned long pk = PKMAP_ADDR(3);
	pte_t *pkp = &pkmap_page_table[3];
	struct sim_stats st;

	(void)state;
	memset(sim_phys(pa_of(p)), 's', PAGE_SIZE);
	map_slot(ptep, va, p);
	map_slot(pkp, pk, q);
	memcpy((void *)pk, (void *)va, PAGE_SIZE);
	sim_get_stats(&st);
	assert_int_equal(sim_phys(pa_of(q))[PAGE_SIZE - 1], 's');
	assert_true(st.fills >= PAGE_SIZE / 32 && st.write_misses >= PAGE_SIZE / 32);
	unmap_slot(pkp, pk);
	unmap_slot(ptep, va);
}

/* Two aliases dirty on one physical line: the second write-back clobbers the first. */
static void second_write_back_of_two_dirty_aliases_is_reported(void **state)
{
	unsigned long pk = PKMAP_ADDR(4);
	pte_t *pkp = &pkmap_page_table[4];

	(void)state;
	map_slot(pkp, pk, p);
	map_slot(ptep, va, p);
	(void)*(volatile char *)pk;
	(void)*(volatile char *)va;
	((char *)pk)[0] = 'k';                          /* dirty under the pkmap alias */
	((char *)va)[1] = 'f';                          /* dirty under the fixmap alias */
	cpu_dcache_clean_area((void *)pk, PAGE_SIZE);   /* memory: 'k' */
	assert_int_equal(sim_violations(SIM_NR_VIOLATIONS), 0);
	__cpuc_flush_dcache_area((void *)va, PAGE_SIZE);       /* writes back 0 over 'k' */
	expect_violation(SIM_WW_ALIAS, "overwrites 1 byte(s)");
	assert_int_equal(sim_phys(pa_of(p))[0], 0);     /* what the hardware would leave */
	pte_clear(ptep);
	local_flush_tlb_kernel_page(va);
	unmap_slot(pkp, pk);
	sim_clear_violations();
}

/* A clean alias written back after the other's write-back is not a clobber. */
static void write_back_of_the_only_dirty_alias_is_clean(void **state)
{
	unsigned long pk = PKMAP_ADDR(4);
	pte_t *pkp = &pkmap_page_table[4];

	(void)state;
	map_slot(pkp, pk, p);
	(void)*(volatile char *)pk;
	((char *)pk)[0] = 'k';
	unmap_slot(pkp, pk);
	map_slot(ptep, va, p);
	assert_int_equal(*(volatile char *)va, 'k');
	((char *)va)[1] = 'f';
	unmap_slot(ptep, va);
	assert_int_equal(sim_phys(pa_of(p))[0], 'k');
	assert_int_equal(sim_phys(pa_of(p))[1], 'f');
}

/* Reading other pages evicts a dirty line; it is written back to the PA it came from. */
static void eviction_writes_back_to_the_line_pa(void **state)
{
	struct page *lo[4];
	struct sim_stats st;

	(void)state;
	assert_int_equal(sim_dcache_size(), 16384);
	map_slot(ptep, va, p);
	(void)*(volatile char *)va;
	strcpy((char *)va, "evicted");
	/* The PTE moves to q with p's dirty lines still cached (a reported bug) ... */
	set_pte_ext(ptep, mk_pte(q, PAGE_KERNEL));
	local_flush_tlb_kernel_page(va);
	assert_int_equal(sim_violations(SIM_REMAP_DIRTY), 1);
	assert_int_equal(sim_violations(SIM_STALE_LINES), 1);
	sim_clear_violations();
	/* ... and four more pages fill every way of every set (16 KiB, 4-way). */
	for (int i = 0; i < 4; i++) {
		lo[i] = host_alloc(ZONE_LOWMEM);
		(void)*(volatile char *)page_address(lo[i]);
	}
	sim_get_stats(&st);
	assert_true(st.evictions >= PAGE_SIZE / 32);
	assert_string_equal((char *)sim_phys(pa_of(p)), "evicted");     /* p, not q */
	assert_int_equal(sim_phys(pa_of(q))[0], 0);
	pte_clear(ptep);
	local_flush_tlb_kernel_page(va);
	assert_int_equal(sim_violations(SIM_NR_VIOLATIONS), 0);
}

/* The size is configurable: a 4 KiB cache holds one page, so a second read evicts the first. */
static void cache_size_is_configurable(void **state)
{
	struct sim_stats st;
	char *a = page_address(host_alloc(ZONE_LOWMEM)), *b = page_address(host_alloc(ZONE_LOWMEM));

	(void)state;
	sim_install_fault_handler();     /* cmocka replaced it after the set-up */
	assert_int_equal(sim_set_dcache_size(3000), -1);
	assert_int_equal(sim_set_dcache_size(256 * 1024), -1);
	assert_int_equal(sim_set_dcache_size(4096), 0);
	(void)*(volatile char *)a;
	a[0] = 'a';
	(void)*(volatile char *)b;                      /* evicts all of a's lines */
	sim_get_stats(&st);
	assert_int_equal(st.evictions, PAGE_SIZE / 32);
	assert_int_equal(sim_phys(__pa(a))[0], 'a');
	assert_int_equal(sim_set_dcache_size(16384), 0);
}

/* The direct map is cached: data written through it is in the cache, not yet in RAM. */
static void direct_map_is_cached(void **state)
{
	char *lo = page_address(host_alloc(ZONE_LOWMEM));

	(void)state;
	sim_install_fault_handler();     /* cmocka replaced it after the set-up */
	(void)*(volatile char *)lo;
	strcpy(lo, "direct");
	assert_int_equal(sim_phys(__pa(lo))[0], 0);
	cpu_dcache_clean_area(lo, PAGE_SIZE);
	assert_string_equal((char *)sim_phys(__pa(lo)), "direct");
}

/* A stale read: a slot aliasing a lowmem page while the direct map holds its lines. */
static void slot_alias_of_a_cached_lowmem_page_is_stale_read(void **state)
{
	struct page *lp = host_alloc(ZONE_LOWMEM);
	char *lo = page_address(lp);

	(void)state;
	sim_install_fault_handler();     /* cmocka replaced it after the set-up */
	(void)*(volatile char *)lo;                     /* direct map caches the page */
	map_slot(ptep, va, lp);
	(void)*(volatile char *)va;
	strcpy((char *)va, "via slot");
	unmap_slot(ptep, va);                           /* memory gets it ... */
	assert_int_equal(*(volatile char *)lo, 0);      /* ... the direct map hits old lines */
	expect_violation(SIM_STALE_READ, "direct map pfn");
}

static unsigned int irq_points_seen[SIM_NR_IRQ_POINTS];
static unsigned long irq_point_va[SIM_NR_IRQ_POINTS];

static void count_irq_point(enum sim_irq_point where, unsigned long v)
{
	irq_points_seen[where]++;
	irq_point_va[where] = v;
	/* An interrupt handler's own maintenance is no new interrupt point. */
	local_flush_tlb_kernel_page(SLOT(3));
}

/* Each interrupt point is reached where the kmap code needs it, and only with IRQs on. */
static void irq_points_fire_inside_maintenance(void **state)
{
	(void)state;
	memset(irq_points_seen, 0, sizeof(irq_points_seen));
	sim_irq_at = count_irq_point;
	map_slot(ptep, va, p);                          /* before the PTE write, after the TLB flush */
	assert_int_equal(irq_points_seen[SIM_IRQ_BEFORE_PTE_WRITE], 1);
	assert_int_equal(irq_point_va[SIM_IRQ_BEFORE_PTE_WRITE], va);
	assert_int_equal(irq_points_seen[SIM_IRQ_AFTER_TLB_FLUSH], 1);
	unmap_slot(ptep, va);                           /* inside and after the flush */
	assert_int_equal(irq_points_seen[SIM_IRQ_IN_FLUSH], 1);
	assert_int_equal(irq_points_seen[SIM_IRQ_AFTER_FLUSH], 1);
	assert_int_equal(irq_point_va[SIM_IRQ_AFTER_FLUSH], va);
	arch_local_irq_disable();
	map_slot(ptep, va, p);
	unmap_slot(ptep, va);
	arch_local_irq_enable();
	assert_int_equal(irq_points_seen[SIM_IRQ_BEFORE_PTE_WRITE], 1);
	assert_int_equal(irq_points_seen[SIM_IRQ_AFTER_FLUSH], 1);
	assert_int_equal(irq_points_seen[SIM_IRQ_AFTER_TLB_FLUSH], 2);
	sim_irq_at = NULL;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		MODEL_TEST(correct_sequence_is_clean),
		MODEL_TEST(write_then_clear_pte_without_clean_is_remap_over_dirty_lines),
		MODEL_TEST(invalidate_of_dirty_line_is_lost_write),
		MODEL_TEST(pte_change_without_tlb_flush_is_stale_tlb),
		MODEL_TEST(pte_clear_without_tlb_flush_on_an_open_window_is_stale_tlb),
		MODEL_TEST(remap_without_invalidate_is_stale_lines),
		MODEL_TEST(uncleaned_pte_is_reported),
		MODEL_TEST(cleaned_but_undrained_pte_is_reported),
		MODEL_TEST(read_through_alias_of_dirty_data_is_stale_read),
		MODEL_TEST(hit_on_lines_older_than_memory_is_stale_read),
		MODEL_TEST(uncached_mapping_reaches_ram_at_once),
		MODEL_TEST(uncached_read_beside_dirty_cached_alias_is_stale_read),
		MODEL_TEST(whole_cache_flush_covers_windows_and_tables),
		MODEL_TEST(write_miss_goes_to_memory),
		MODEL_TEST(write_after_read_stays_in_the_cache),
		MODEL_TEST(copy_reads_allocate_and_writes_miss),
		MODEL_TEST(second_write_back_of_two_dirty_aliases_is_reported),
		MODEL_TEST(write_back_of_the_only_dirty_alias_is_clean),
		MODEL_TEST(eviction_writes_back_to_the_line_pa),
		MODEL_TEST(cache_size_is_configurable),
		MODEL_TEST(direct_map_is_cached),
		MODEL_TEST(slot_alias_of_a_cached_lowmem_page_is_stale_read),
		MODEL_TEST(irq_points_fire_inside_maintenance),
	};

	return host_run_groups("model", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
