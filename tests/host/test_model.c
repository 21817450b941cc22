/*
 * The cache/TLB/walker model itself: each deliberately wrong maintenance
 * sequence is reported as its violation, and the right sequence is not.
 * These call the arch primitives directly, as the kmap code would.
 */
#include <stdio.h>
#include "host_test.h"
#include <asm/cacheflush.h>
#include <asm/tlbflush.h>

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
	if (!strstr(sim_last_violation(), "fixmap slot") && !strstr(sim_last_violation(), "pkmap slot"))
		fail_msg("violation does not name the slot: %s", sim_last_violation());
	sim_clear_violations();
}

static void correct_sequence_is_clean(void **state)
{
	struct sim_stats st;

	(void)state;
	map_slot(ptep, va, p);
	strcpy((char *)va, "correct");
	unmap_slot(ptep, va);
	assert_string_equal((char *)sim_phys((phys_addr_t)page_to_pfn(p) << PAGE_SHIFT), "correct");
	map_slot(ptep, va, q);
	assert_int_equal(((char *)va)[0], 0);   /* q's content, not p's lines */
	unmap_slot(ptep, va);
	sim_get_stats(&st);
	assert_true(st.walks >= 2 && st.fills >= 2 * PAGE_SIZE / 32 && st.writebacks >= 1);
	assert_int_equal(sim_violations(SIM_NR_VIOLATIONS), 0);
}

static void write_then_clear_pte_without_clean_is_lost_write(void **state)
{
	(void)state;
	map_slot(ptep, va, p);
	strcpy((char *)va, "dirty");
	pte_clear(ptep);
	expect_violation(SIM_LOST_WRITE, "dirty line");
	/* And the data really did not reach RAM. */
	assert_int_equal(sim_phys((phys_addr_t)page_to_pfn(p) << PAGE_SHIFT)[0], 0);
}

static void invalidate_of_dirty_line_is_lost_write(void **state)
{
	(void)state;
	map_slot(ptep, va, p);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		MODEL_TEST(correct_sequence_is_clean),
		MODEL_TEST(write_then_clear_pte_without_clean_is_lost_write),
		MODEL_TEST(invalidate_of_dirty_line_is_lost_write),
		MODEL_TEST(pte_change_without_tlb_flush_is_stale_tlb),
		MODEL_TEST(remap_without_invalidate_is_stale_lines),
		MODEL_TEST(uncleaned_pte_is_reported),
		MODEL_TEST(cleaned_but_undrained_pte_is_reported),
		MODEL_TEST(read_through_alias_of_dirty_data_is_stale_read),
		MODEL_TEST(hit_on_lines_older_than_memory_is_stale_read),
		MODEL_TEST(uncached_mapping_reaches_ram_at_once),
		MODEL_TEST(uncached_read_beside_dirty_cached_alias_is_stale_read),
		MODEL_TEST(whole_cache_flush_covers_windows_and_tables),
	};

	return cmocka_run_group_tests_name("model", tests, NULL, NULL);
}
