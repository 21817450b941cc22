/* Page frames, zones and the page allocator. */
#include <stdio.h>
#include "host_test.h"
#include <asm/cacheflush.h>

static void zones_split_at_lowmem_end(void **state)
{
	(void)state;
	assert_int_equal(nr_managed_pages(ZONE_LOWMEM),
			 (LOWMEM_SIZE - HOST_FIRST_FREE) >> PAGE_SHIFT);
	assert_int_equal(nr_managed_pages(ZONE_HIGHMEM), (RAM_SIZE - LOWMEM_SIZE) >> PAGE_SHIFT);
	assert_int_equal(nr_free_pages(ZONE_HIGHMEM), nr_managed_pages(ZONE_HIGHMEM));
	assert_false(PageHighMem(pfn_to_page(LOWMEM_PFN_END - 1)));
	assert_true(PageHighMem(pfn_to_page(LOWMEM_PFN_END)));
	assert_true(pfn_to_page(0)->flags & PG_reserved);
	assert_false(pfn_valid(NR_PAGES));
	assert_true(pfn_valid(NR_PAGES - 1));
}

static void alloc_respects_zone(void **state)
{
	struct page *lo = host_alloc(ZONE_LOWMEM), *hi = host_alloc(ZONE_HIGHMEM);

	(void)state;
	assert_false(PageHighMem(lo));
	assert_true(PageHighMem(hi));
	assert_true(page_to_pfn(lo) >= HOST_FIRST_FREE >> PAGE_SHIFT);
	assert_true(page_to_pfn(lo) < LOWMEM_PFN_END);
	assert_true(page_to_pfn(hi) >= LOWMEM_PFN_END);
	assert_int_equal(nr_free_pages(ZONE_HIGHMEM), nr_managed_pages(ZONE_HIGHMEM) - 1);
	/* Ascending order out of a fresh allocator. */
	assert_int_equal(page_to_pfn(hi), LOWMEM_PFN_END);
	assert_int_equal(page_to_pfn(host_alloc(ZONE_HIGHMEM)), LOWMEM_PFN_END + 1);
}

static void pfn_page_round_trip(void **state)
{
	(void)state;
	for (unsigned long pfn = 0; pfn < NR_PAGES; pfn += 97)
		assert_int_equal(page_to_pfn(pfn_to_page(pfn)), pfn);
}

static void page_address_lowmem_only(void **state)
{
	struct page *lo = host_alloc(ZONE_LOWMEM), *hi = host_alloc(ZONE_HIGHMEM);
	char *va = page_address(lo);

	(void)state;
	sim_install_fault_handler();    /* cmocka replaced it after the set-up */
	assert_ptr_equal(va, __va((phys_addr_t)page_to_pfn(lo) << PAGE_SHIFT));
	assert_ptr_equal(virt_to_page(va + 100), lo);
	/* The direct map reaches the same RAM the model calls physical: a store miss directly, */
	va[5] = 0x5a;
	assert_int_equal(sim_phys((phys_addr_t)page_to_pfn(lo) << PAGE_SHIFT)[5], 0x5a);
	/* a store hit (the read allocated the line) at the clean. */
	assert_int_equal(va[6], 0);
	va[6] = 0x5b;
	assert_int_equal(sim_phys((phys_addr_t)page_to_pfn(lo) << PAGE_SHIFT)[6], 0);
	cpu_dcache_clean_area(va, PAGE_SIZE);
	assert_int_equal(sim_phys((phys_addr_t)page_to_pfn(lo) << PAGE_SHIFT)[6], 0x5b);
	assert_null(page_address(hi));
}

static void exhaustion_is_clean(void **state)
{
	unsigned long n = nr_free_pages(ZONE_HIGHMEM), i;
	struct page *last = NULL;

	(void)state;
	for (i = 0; i < n; i++)
		last = host_alloc(ZONE_HIGHMEM);
	assert_null(alloc_page(ZONE_HIGHMEM));
	assert_int_equal(nr_free_pages(ZONE_HIGHMEM), 0);
	assert_true(nr_free_pages(ZONE_LOWMEM) > 0);
	__free_page(last);
	assert_ptr_equal(alloc_page(ZONE_HIGHMEM), last);
}

static void do_double_free(void *arg)
{
	__free_page(arg);
	__free_page(arg);
}

static void double_free_panics(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	char pfn[32];

	(void)state;
	snprintf(pfn, sizeof(pfn), "pfn 0x%lx", page_to_pfn(p));
	EXPECT_PANIC(do_double_free, p, "__free_page", pfn, "already free", "thread 'main'");
}

static void do_free_reserved(void *arg)
{
	(void)arg;
	__free_page(pfn_to_page(1));
}

static void freeing_reserved_panics(void **state)
{
	(void)state;
	EXPECT_PANIC(do_free_reserved, NULL, "pfn 0x1 is reserved");
}

static void do_free_bogus(void *arg)
{
	__free_page((struct page *)((char *)arg + 1));
}

static void freeing_non_page_panics(void **state)
{
	(void)state;
	EXPECT_PANIC(do_free_bogus, host_alloc(ZONE_LOWMEM), "not a struct page");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(zones_split_at_lowmem_end),
		HOST_TEST(alloc_respects_zone),
		HOST_TEST(pfn_page_round_trip),
		HOST_TEST(page_address_lowmem_only),
		HOST_TEST(exhaustion_is_clean),
		HOST_TEST(double_free_panics),
		HOST_TEST(freeing_reserved_panics),
		HOST_TEST(freeing_non_page_panics),
	};

	return host_run_groups("page_alloc", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
