/* Every misuse of the kmap API ends in a diagnostic naming thread and address. */
#include <stdio.h>
#include "host_test.h"

#define SLOT(n)         __fix_to_virt(FIX_KMAP_BEGIN + (n))

static char a_hex[32], b_hex[32];

static void hexes(unsigned long a, unsigned long b)
{
	snprintf(a_hex, sizeof(a_hex), "0x%08lx", a);
	snprintf(b_hex, sizeof(b_hex), "0x%08lx", b);
}

static void do_unmap_out_of_order(void *arg)
{
	char *a, *b;

	(void)arg;
	a = kmap_local_page(host_alloc(ZONE_HIGHMEM));
	b = kmap_local_page(host_alloc(ZONE_HIGHMEM));
	(void)b;
	kunmap_local(a);
}

static void unmap_out_of_order(void **state)
{
	(void)state;
	hexes(SLOT(KM_INCR - 1), SLOT(2 * KM_INCR - 1));
	strcpy(current->name, "worker");
	EXPECT_PANIC(do_unmap_out_of_order, NULL, "kunmap_local(", a_hex, "out of order",
		     "the most recent local kmap is", b_hex, "thread 'worker'");
	strcpy(current->name, "main");
}

static void do_too_many(void *arg)
{
	(void)arg;
	for (int i = 0; i < 17; i++)
		kmap_local_page(host_alloc(ZONE_HIGHMEM));
}

static void too_many_nested_maps(void **state)
{
	(void)state;
	hexes(SLOT(16 * KM_INCR - 1), 0);
	EXPECT_PANIC(do_too_many, NULL, "thread 'main' already holds 16 local kmaps",
		     "at most 16 may be nested", a_hex);
}

static void do_unmap_unmapped_slot(void *arg)
{
	(void)arg;
	kmap_local_page(host_alloc(ZONE_HIGHMEM));
	kunmap_local((void *)SLOT(5 * KM_INCR - 1));
}

static void unmap_of_unmapped_slot(void **state)
{
	(void)state;
	hexes(SLOT(5 * KM_INCR - 1), SLOT(KM_INCR - 1));
	EXPECT_PANIC(do_unmap_unmapped_slot, NULL, a_hex, "that slot is not mapped", b_hex);
}

static void do_unmap_with_nothing_mapped(void *arg)
{
	(void)arg;
	kunmap_local((void *)(SLOT(0) + 8));
}

static void unmap_with_no_map_held(void **state)
{
	(void)state;
	EXPECT_PANIC(do_unmap_with_nothing_mapped, NULL, "holds no local kmap", "thread 'main'");
}

static void do_unmap_struct_page(void *arg)
{
	(void)kmap_local_page(arg);
	/* The cast hides the type from the compile-time check. */
	kunmap_local((void *)arg);
}

static void unmap_of_struct_page_at_run_time(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	char want[64];

	(void)state;
	snprintf(want, sizeof(want), "kunmap_local(%p) in thread 'main'", (void *)p);
	EXPECT_PANIC(do_unmap_struct_page, p, want, "that is a struct page");
}

static void do_unmap_garbage(void *arg)
{
	(void)arg;
	kunmap_local((void *)0x1234);
}

static void unmap_of_foreign_address(void **state)
{
	(void)state;
	EXPECT_PANIC(do_unmap_garbage, NULL, "kunmap_local(0x00001234)",
		     "not an address a kmap call returns");
}

#if !CONFIG_KMAP_DEFER
static void do_map_busy_slot(void *arg)
{
	struct page *p = arg;

	/* Something left slot KM_INCR-1 mapped behind the thread's back. */
	set_pte_ext(virt_to_kpte(SLOT(KM_INCR - 1)), mk_pte(p, PAGE_KERNEL));
	kmap_local_page(host_alloc(ZONE_HIGHMEM));
}

static void map_into_busy_slot(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	char pfn[32];

	(void)state;
	hexes(SLOT(KM_INCR - 1), 0);
	snprintf(pfn, sizeof(pfn), "still maps pfn 0x%lx", page_to_pfn(p));
	EXPECT_PANIC(do_map_busy_slot, p, a_hex, pfn, "thread 'main'");
}
#endif

static void leak_and_exit(void *arg)
{
	(void)arg;
	kmap_local_page(host_alloc(ZONE_HIGHMEM));
	kmap_local_page(host_alloc(ZONE_HIGHMEM));
	thread_exit(0);                         /* its exit checks panic */
}

static char leak_out[4096];
static int leak_status;

/* A real thread that leaves holding two maps; it then cleans up and leaves properly. */
static void leaker(void *arg)
{
	(void)arg;
	leak_status = sim_expect_halt(leak_and_exit, NULL, leak_out, sizeof(leak_out));
	while (current->kmap_ctrl.idx)
		kunmap_local((void *)SLOT(current->kmap_ctrl.idx - 1));
}

static void leak_at_exit_lists_addresses(void **state)
{
	char pfn[32];

	(void)state;
	hexes(SLOT(KM_INCR - 1), SLOT(2 * KM_INCR - 1));
	snprintf(pfn, sizeof(pfn), "(pfn 0x%lx)", LOWMEM_PFN_END);
	thread_join(host_spawn("leaker", leaker, NULL, HOST_PRIO_MAIN + 1));
	assert_int_equal(leak_status, 3);
	for (const char *const *n = (const char *const[]){ "thread 'leaker' holds 2 local kmap(s)",
		a_hex, b_hex, pfn, "leaked 2 local kmap(s)", NULL }; *n; n++)
		if (!strstr(leak_out, *n))
			fail_msg("diagnostic lacks \"%s\"; output:\n%s", *n, leak_out);
	kmap_assert_nomap(current);     /* nothing held: returns */
}

static void do_touch(void *arg)
{
	*(volatile char *)arg = 1;
}

static void access_to_unmapped_slot_aborts(void **state)
{
	char desc[64];

	(void)state;
	hexes(SLOT(3) + 100, 0);
	snprintf(desc, sizeof(desc), "FAR %s (kmap_local slot 3", a_hex);
	EXPECT_ABORT(do_touch, (void *)(SLOT(3) + 100), "data abort (write)", desc);
}

#if CONFIG_DEBUG_HIGHMEM
static void do_overrun(void *arg)
{
	char *a = kmap_local_page(arg);

	a[PAGE_SIZE] = 1;       /* one past the end: slot 0, the guard page */
}

static void guard_page_catches_overrun(void **state)
{
	(void)state;
	hexes(SLOT(0), 0);
	EXPECT_ABORT(do_overrun, host_alloc(ZONE_HIGHMEM), a_hex, "kmap_local guard page, slot 0");
}

static void do_underrun(void *arg)
{
	char *a = kmap_local_page(arg);

	a[-1] = 1;              /* just below: slot 2, the next guard page */
}

static void guard_page_catches_underrun(void **state)
{
	(void)state;
	EXPECT_ABORT(do_underrun, host_alloc(ZONE_HIGHMEM), "kmap_local guard page, slot 2");
}
#endif

static void describe_fault_names_slots(void **state)
{
	char buf[96];
	struct page *p = host_alloc(ZONE_HIGHMEM);
	char *a;

	(void)state;
	assert_null(kmap_describe_fault((unsigned long)page_address(host_alloc(ZONE_LOWMEM)),
					buf, sizeof(buf)));
	a = kmap_local_page(p);
	kmap_describe_fault((unsigned long)a + 5, buf, sizeof(buf));
	snprintf(b_hex, sizeof(b_hex), "maps pfn 0x%lx", page_to_pfn(p));
	assert_non_null(strstr(buf, b_hex));
	kmap_describe_fault(PKMAP_ADDR(3), buf, sizeof(buf));
	assert_string_equal(buf, "pkmap slot 3, not mapped");
	kunmap_local(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(unmap_out_of_order),
		HOST_TEST(too_many_nested_maps),
		HOST_TEST(unmap_of_unmapped_slot),
		HOST_TEST(unmap_with_no_map_held),
		HOST_TEST(unmap_of_struct_page_at_run_time),
		HOST_TEST(unmap_of_foreign_address),
#if !CONFIG_KMAP_DEFER
		/* Deferred: a busy slot is another thread's, flushed and taken. */
		HOST_TEST(map_into_busy_slot),
#endif
		HOST_TEST(leak_at_exit_lists_addresses),
		HOST_TEST(access_to_unmapped_slot_aborts),
#if CONFIG_DEBUG_HIGHMEM
		HOST_TEST(guard_page_catches_overrun),
		HOST_TEST(guard_page_catches_underrun),
#endif
		HOST_TEST(describe_fault_names_slots),
	};

	return host_run_groups("misuse", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
