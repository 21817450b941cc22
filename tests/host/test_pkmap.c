/*
 * The kmap() pool: counts, the kmap_high_get fallback, wrap-around,
 * sleeping, and interrupts landing inside the recycling.
 */
#include <stdio.h>
#include "host_test.h"
#include <asm/irqflags.h>
#include <lokal/platform.h>

static phys_addr_t pa_of(const struct page *p)
{
	return (phys_addr_t)page_to_pfn(p) << PAGE_SHIFT;
}

static void kmap_counts_and_flush_unused(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	char *a, *b;

	(void)state;
	a = kmap(p);
	assert_int_equal((unsigned long)a, PKMAP_ADDR(1));
	assert_int_equal(pkmap_slot_count(1), 2);
	assert_ptr_equal(page_address(p), a);
	assert_int_equal(pkmap_page_table[1], mk_pte(p, PAGE_KERNEL));
	b = kmap(p);
	assert_ptr_equal(a, b);
	assert_int_equal(pkmap_slot_count(1), 3);
	(void)*(volatile char *)a;      /* read-allocate: the store is a dirty hit */
	strcpy(a, "pkmap data");
	kunmap(p);
	kunmap(p);
	/* Released but still mapped until the next flush. */
	assert_int_equal(pkmap_slot_count(1), 1);
	assert_ptr_equal(page_address(p), a);
	assert_ptr_equal(kmap_to_page(a + 5), p);
	kmap_flush_unused();
	assert_int_equal(pkmap_slot_count(1), 0);
	assert_int_equal(pkmap_page_table[1], 0);
	assert_null(page_address(p));
	assert_string_equal((char *)sim_phys(pa_of(p)), "pkmap data");
}

static void lowmem_kmap_is_direct(void **state)
{
	struct page *lo = host_alloc(ZONE_LOWMEM);

	(void)state;
	assert_ptr_equal(kmap(lo), page_address(lo));
	kunmap(lo);
	for (unsigned int i = 0; i < LAST_PKMAP; i++)
		assert_int_equal(pkmap_slot_count(i), 0);
}

static void local_map_of_kmapped_page_reuses_pkmap_address(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	char *a, *l;

	(void)state;
	a = kmap(p);
	(void)*(volatile char *)a;
	strcpy(a, "through kmap");
	l = kmap_local_page(p);
	assert_ptr_equal(l, a);
	assert_int_equal(pkmap_slot_count(PKMAP_NR(a)), 3);
	assert_int_equal(current->kmap_ctrl.idx, 0);    /* no fixmap slot taken */
	assert_string_equal(l, "through kmap");
	kunmap_local(l + 10);
	assert_int_equal(pkmap_slot_count(PKMAP_NR(a)), 2);
	/* Also after kunmap(), while the slot waits for the next flush. */
	kunmap(p);
	l = kmap_atomic(p);
	assert_ptr_equal(l, a);
	assert_int_equal(pkmap_slot_count(PKMAP_NR(a)), 2);
	kunmap_atomic(l);
	assert_int_equal(pkmap_slot_count(PKMAP_NR(a)), 1);
}

/* Enough kmap/kunmap pairs to wrap the pool twice, with data checked. */
static void wrap_around_recycles_slots(void **state)
{
	enum { N = 2 * LAST_PKMAP + 7 };
	static struct page *pg[N];
	unsigned int i;

	(void)state;
	for (i = 0; i < N; i++) {
		char *a;

		pg[i] = host_alloc(ZONE_HIGHMEM);
		a = kmap(pg[i]);
		assert_int_equal((unsigned long)a, PKMAP_ADDR((i + 1) % LAST_PKMAP));
		snprintf(a, 32, "page %u", i);
		kunmap(pg[i]);
	}
	/* Pages mapped before the last wrap lost their address. */
	assert_null(page_address(pg[0]));
	assert_non_null(page_address(pg[N - 1]));
	for (i = 0; i < N; i++) {
		char want[32], *a = kmap_local_page(pg[i]);

		snprintf(want, sizeof(want), "page %u", i);
		assert_string_equal(a, want);
		kunmap_local(a);
	}
}

static struct page *held[LAST_PKMAP];

static void fill_pool(void)
{
	for (unsigned int i = 0; i < LAST_PKMAP; i++) {
		held[i] = host_alloc(ZONE_HIGHMEM);
		kmap(held[i]);
	}
}

static void do_kmap_one_more(void *arg)
{
	(void)arg;
	kmap(host_alloc(ZONE_HIGHMEM));
}

static void full_pool_before_scheduler_panics(void **state)
{
	char n[64];

	(void)state;
	fill_pool();
	snprintf(n, sizeof(n), "all %u pkmap slots are held", (unsigned int)LAST_PKMAP);
	EXPECT_PANIC(do_kmap_one_more, NULL, n, "no other thread", "thread 'boot'");
}

/* Another thread, less urgent, releases one map while the main thread sleeps in kmap(). */
static bool released;

static void release_one(void *arg)
{
	(void)arg;
	HOST_EXPECT(current->prio < HOST_PRIO_MAIN);
	(void)*(volatile char *)page_address(held[7]);
	strcpy(page_address(held[7]), "released");      /* dirty in the cache */
	released = true;
	kunmap(held[7]);
}

static void full_pool_sleeps_until_kunmap(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	struct thread *r;
	char *a;

	(void)state;
	fill_pool();
	released = false;
	r = host_spawn("releaser", release_one, NULL, HOST_PRIO_MAIN - 1);
	assert_false(released);                 /* it runs only once we sleep */
	a = kmap(p);                            /* the pool is full: sleeps */
	assert_true(released);
	assert_int_equal((unsigned long)a, PKMAP_ADDR(8));     /* held[7]'s slot */
	assert_null(page_address(held[7]));
	/* The slot was recycled with a whole-cache flush: the data reached memory. */
	assert_string_equal((char *)sim_phys(pa_of(held[7])), "released");
	thread_join(r);
	kunmap(p);
	for (unsigned int i = 0; i < LAST_PKMAP; i++)
		if (i != 7)
			kunmap(held[i]);
}

static void do_touch(void *arg)
{
	(void)*(volatile char *)arg;
}

/*
 * __free_page() after kmap(); kunmap() releases the page's idle pkmap slot
 * at once: its dirty lines reach the page, the PTE and
 * the TLB entry go, so the old address faults.
 */
static void free_after_kunmap_releases_the_pkmap_slot(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	char *a;

	(void)state;
	a = kmap(p);
	(void)*(volatile char *)a;              /* cached: the store is a dirty hit */
	strcpy(a, "written before the free");
	kunmap(p);
	__free_page(p);
	assert_null(page_address(p));
	assert_int_equal(pkmap_page_table[PKMAP_NR(a)], 0);
	assert_string_equal((char *)sim_phys(pa_of(p)), "written before the free");
	EXPECT_ABORT(do_touch, a, "data abort (read)", "not mapped");
}

static void do_kunmap_unmapped(void *arg)
{
	kunmap(arg);
}

static void kunmap_of_unmapped_page_panics(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	char n[32];

	(void)state;
	snprintf(n, sizeof(n), "kunmap(pfn 0x%lx)", page_to_pfn(p));
	EXPECT_PANIC(do_kunmap_unmapped, p, n, "is not kmap()ed", "thread 'main'");
}

static void do_kunmap_twice(void *arg)
{
	kmap(arg);
	kunmap(arg);
	kunmap(arg);
}

static void pkmap_count_underflow_panics(void **state)
{
	(void)state;
	EXPECT_PANIC(do_kunmap_twice, host_alloc(ZONE_HIGHMEM), "more kunmap() than kmap()",
		     "went negative", "thread 'main'");
}

/*
 * Interrupts inside the recycling. The recycling masks them only for a
 * batch of slots at a time and flushes the cache with them on, so an
 * interrupt may land at every unmask and in the middle of the flush. Each
 * one maps pages of the test (through their pkmap address while they
 * still have one, as kmap_local_page() does, or a slot of its own), reads
 * them and writes a new value: a slot it used after its lines were
 * flushed must not be freed, or that value never reaches the page.
 */
enum { NPG = 12 };                      /* pkmap slots in two batches or more */
static struct page *irq_pg[NPG];
static uint32_t irq_val[NPG];
static unsigned int irq_landed, irq_next;
static bool irq_live;

static void irq_touch(unsigned int i)
{
	uint32_t *p = kmap_local_page(irq_pg[i]);

	HOST_EXPECT(p[0] == irq_val[i]);        /* cached now: the store is a dirty hit */
	p[0] = ++irq_val[i];
	kunmap_local(p);
}

/*
 * Every page that still has a pkmap address, and one more in turn (which
 * gets a slot of its own once its pkmap slot is gone).
 */
static void irq_maps_pages(enum sim_irq_point where, unsigned long vaddr)
{
	unsigned long flags;

	(void)vaddr;
	if (!irq_live || (where != SIM_IRQ_AT_UNMASK && where != SIM_IRQ_IN_FLUSH))
		return;
	flags = arch_local_irq_save();
	irq_enter();
	for (unsigned int i = 0; i < NPG; i++)
		if (page_address(irq_pg[i]))
			irq_touch(i);
	irq_touch(irq_next++ % NPG);
	irq_exit();
	arch_local_irq_restore(flags);
	irq_landed++;
}

/* Every page holds its last value in memory once the pool is flushed with no interrupt. */
static void check_irq_pages(void)
{
	kmap_flush_unused();
	for (unsigned int i = 0; i < NPG; i++) {
		const uint32_t *m = (const uint32_t *)sim_phys(pa_of(irq_pg[i]));

		if (m[0] != irq_val[i])
			fail_msg("page %u holds %u in memory, the last interrupt wrote %u",
				 i, m[0], irq_val[i]);
	}
}

/* The test's pages, each kmap()ed once and released with a dirty line. */
static void irq_pages_init(void)
{
	irq_landed = irq_next = 0;
	for (unsigned int i = 0; i < NPG; i++) {
		uint32_t *a;

		irq_pg[i] = host_alloc(ZONE_HIGHMEM);
		a = kmap(irq_pg[i]);
		(void)*(volatile uint32_t *)a;
		a[0] = irq_val[i] = 100 * i;
		kunmap(irq_pg[i]);
	}
	sim_irq_at = irq_maps_pages;
}

static void irqs_inside_flush_unused(void **state)
{
	(void)state;
	irq_pages_init();
	irq_live = true;
	kmap_flush_unused();
	irq_live = false;
	/* In the flush, and at each batch's unmask. */
	if (irq_landed < 3)
		fail_msg("only %u interrupts landed in the recycling", irq_landed);
	check_irq_pages();
	sim_irq_at = NULL;
}

/*
 * The same in kmap()'s own recycling, when its search wraps around: the
 * kmap() that takes slot 0 again, and the one after it.
 */
static void irqs_inside_kmap_wrap_around(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	unsigned int i;

	(void)state;
	/* The test's pages end up in the last slots before the wrap. */
	for (i = 1; i < LAST_PKMAP - NPG; i++) {
		struct page *q = host_alloc(ZONE_HIGHMEM);

		kmap(q);
		kunmap(q);
	}
	irq_pages_init();
	assert_int_equal((unsigned long)page_address(irq_pg[NPG - 1]), PKMAP_ADDR(LAST_PKMAP - 1));
	for (i = 0; i < 2; i++) {
		uint32_t *a;

		irq_live = true;
		a = kmap(p);
		irq_live = false;
		(void)*(volatile uint32_t *)a;
		kunmap(p);
	}
	if (irq_landed < 3)
		fail_msg("only %u interrupts landed in kmap()", irq_landed);
	check_irq_pages();
	sim_irq_at = NULL;
}

int main(void)
{
	const struct CMUnitTest boot[] = {
		HOST_TEST(full_pool_before_scheduler_panics),
	};
	const struct CMUnitTest tests[] = {
		HOST_TEST(kmap_counts_and_flush_unused),
		HOST_TEST(lowmem_kmap_is_direct),
		HOST_TEST(local_map_of_kmapped_page_reuses_pkmap_address),
		HOST_TEST(wrap_around_recycles_slots),
		HOST_TEST(full_pool_sleeps_until_kunmap),
		HOST_TEST(free_after_kunmap_releases_the_pkmap_slot),
		HOST_TEST(kunmap_of_unmapped_page_panics),
		HOST_TEST(pkmap_count_underflow_panics),
		HOST_TEST(irqs_inside_flush_unused),
		HOST_TEST(irqs_inside_kmap_wrap_around),
	};

	return HOST_RUN("pkmap", boot, tests);
}
