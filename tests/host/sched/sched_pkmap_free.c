/*
 * Freeing a page that kept a pkmap slot.
 * Part of test_sched_real (tests/host/sched/sched_tests.h).
 */
#include "sched_tests.h"

static void free_kmapped(void *page)
{
	__free_page(page);
}

/*
 * kmap(); kunmap(); leaves the page its pkmap address (slot count 1) until
 * the next flush. Freeing it then is correct code: the slot goes at once,
 * and a line the pkmap alias dirtied must not reach the page's next owner
 * when some later flush writes the cache back.
 */
void free_after_kmap_and_kunmap_releases_the_slot(void **state)
{
	struct page *p = alloc_page(ZONE_HIGHMEM), *q;
	phys_addr_t pa;
	uint32_t *v, *w;
	unsigned long nr;

	(void)state;
	assert_non_null(p);
	sim_clear_violations();
	v = kmap(p);
	nr = PKMAP_NR(v);
	v[0] = 0x5ca1ab1e;              /* a dirty line in the pkmap alias */
	kunmap(p);
	assert_int_equal(pkmap_slot_count(nr), 1);
	__free_page(p);
	assert_null(page_address(p));
	assert_int_equal(pkmap_slot_count(nr), 0);
	/* The next owner writes the page through another alias. */
	q = alloc_page(ZONE_HIGHMEM);
	assert_ptr_equal(q, p);         /* the free list is LIFO */
	pa = (phys_addr_t)page_to_pfn(q) << PAGE_SHIFT;
	w = kmap_local_page(q);
	w[0] = 0x0e1e0e1e;
	kunmap_local(w);
	kmap_flush_unused();            /* writes every cached line back */
	assert_int_equal(*(uint32_t *)sim_phys(pa), 0x0e1e0e1e);
	if (sim_violations(SIM_NR_VIOLATIONS))
		fail_msg("model: %s", sim_last_violation());
	/* A page somebody still holds is a bug, and says how many hold it. */
	v = kmap(q);
	kmap(q);
	{
		static char out[4096];

		assert_int_equal(sim_expect_halt(free_kmapped, q, out, sizeof(out)), 3);
		assert_non_null(strstr(out, "is still kmap()ed at"));
		assert_non_null(strstr(out, "by 2 holder(s)"));
	}
	kunmap(q);
	kunmap(q);
	__free_page(q);
	assert_int_equal(pkmap_slot_count(PKMAP_NR(v)), 0);
}
