/*
 * Coherence through the model: the real kmap code, data moved between the
 * mapping paths, zero violations (checked after every test). The target
 * runs the same sequences as its board bring-up check; here a missing
 * flush fails them.
 */
#include <stdio.h>
#include "host_test.h"

#define SLOT(n)         __fix_to_virt(FIX_KMAP_BEGIN + (n))

/* Read first (the ARM926 allocates on reads only), so the stores are dirty hits. */
static void fill(char *va, unsigned int seed)
{
	(void)*(volatile char *)va;
	for (unsigned int i = 0; i < PAGE_SIZE; i += 4)
		*(uint32_t *)(va + i) = seed * 2654435761u + i;
}

static void check(const char *va, unsigned int seed)
{
	for (unsigned int i = 0; i < PAGE_SIZE; i += 4)
		if (*(const uint32_t *)(va + i) != seed * 2654435761u + i)
			fail_msg("word at offset %u of %p differs (seed %u)", i, (const void *)va, seed);
}

static void local_write_then_kmap_read(void **state)
{
	struct page *pg[8];
	unsigned int i;

	(void)state;
	for (i = 0; i < 8; i++) {
		char *a = kmap_local_page(pg[i] = host_alloc(ZONE_HIGHMEM));

		fill(a, i);
		kunmap_local(a);
	}
	for (i = 0; i < 8; i++) {
		char *a = kmap(pg[i]);

		check(a, i);
		kunmap(pg[i]);
	}
}

static void kmap_write_then_local_read(void **state)
{
	struct page *pg[8];
	unsigned int i;

	(void)state;
	for (i = 0; i < 8; i++) {
		pg[i] = host_alloc(ZONE_HIGHMEM);
		fill(kmap(pg[i]), 100 + i);
		kunmap(pg[i]);
	}
	kmap_flush_unused();    /* the pages lose their pkmap address */
	for (i = 0; i < 8; i++) {
		char *a = kmap_local_page(pg[i]);

		assert_true((unsigned long)a >= FIXADDR_START);
		check(a, 100 + i);
		kunmap_local(a);
	}
}

static void kmap_held_while_mapped_locally(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	char *k, *l;

	(void)state;
	k = kmap(p);
	fill(k, 7);
	l = kmap_local_page(p);         /* same alias: no incoherence possible */
	check(l, 7);
	fill(l, 8);
	kunmap_local(l);
	check(k, 8);
	kunmap(p);
	kmap_flush_unused();
	l = kmap_atomic(p);
	check(l, 8);
	kunmap_atomic(l);
}

static void do_touch(void *arg)
{
	(void)*(volatile char *)arg;
}

/* After kunmap_local the slot must not translate any more. */
static void unmapped_slot_faults(void **state)
{
	char *a;

	(void)state;
	a = kmap_local_page(host_alloc(ZONE_HIGHMEM));
	fill(a, 1);
	kunmap_local(a);
	EXPECT_ABORT(do_touch, a, "data abort (read)", "not mapped");
}

/* After kmap_flush_unused the pkmap slot must not translate any more. */
static void flushed_pkmap_slot_faults(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	char *a;

	(void)state;
	a = kmap(p);
	fill(a, 2);
	kunmap(p);
	kmap_flush_unused();
	EXPECT_ABORT(do_touch, a, "data abort (read)", "pkmap slot 1, not mapped");
}

#if !CONFIG_KMAP_DEFER
/* A thread switched out leaves nothing reachable behind (the deferred scheme keeps it on purpose). */
static char touch_out[2048];
static int touch_status;

static void toucher(void *arg)
{
	touch_status = sim_expect_halt(do_touch, arg, touch_out, sizeof(touch_out));
}

static void switched_out_slot_faults(void **state)
{
	char *va;

	(void)state;
	va = kmap_local_page(host_alloc(ZONE_HIGHMEM));
	fill(va, 3);
	thread_join(host_spawn("B", toucher, va, HOST_PRIO_MAIN + 1));
	assert_int_equal(touch_status, SIM_FAULT_EXIT_STATUS);
	assert_non_null(strstr(touch_out, "thread 'B'"));
	assert_non_null(strstr(touch_out, "not mapped"));
	check(va, 3);
	kunmap_local(va);
}
#endif

#if CONFIG_KMAP_DEFER
/*
 * What KMAP_DEFER gives up (docs/user-guide.md): a stale pointer into a slot its owner
 * left mapped reaches the owner's page instead of aborting. Only
 * DEBUG_HIGHMEM (which forces the eager scheme) still catches it.
 */
static char *stray_va;
static char stray_seen;

static void stray_reader(void *arg)
{
	(void)arg;
	stray_seen = *(volatile char *)stray_va;
}

static void switched_out_slot_stays_reachable(void **state)
{
	(void)state;
	stray_va = kmap_local_page(host_alloc(ZONE_HIGHMEM));
	fill(stray_va, 3);
	thread_join(host_spawn("B", stray_reader, NULL, HOST_PRIO_MAIN + 1));
	assert_int_equal(stray_seen, *stray_va);
	check(stray_va, 3);
	kunmap_local(stray_va);
}
#endif

/* Many threads, nested maps, a switch between every step. */
enum { RR_T = 4, RR_DEPTH = 5, RR_ROUNDS = 6 };
static struct page *rr_pg[RR_T][RR_DEPTH];

static bool same(const char *va, unsigned int seed)
{
	for (unsigned int i = 0; i < PAGE_SIZE; i += 4)
		if (*(const uint32_t *)(va + i) != seed * 2654435761u + i)
			return false;
	return true;
}

static void rr_thread(void *arg)
{
	unsigned int t = (unsigned int)(uintptr_t)arg, d, r;
	char *va[RR_DEPTH];

	for (r = 0; r < RR_ROUNDS; r++) {
		if (r < RR_DEPTH) {                     /* push one more map */
			va[r] = kmap_local_page(rr_pg[t][r]);
			fill(va[r], t * 100 + r);
		}
		for (d = 0; d < RR_DEPTH && d <= r; d++)
			HOST_EXPECT(same(va[d], t * 100 + d));
		thread_yield();
	}
	for (d = RR_DEPTH; d-- > 0;) {
		HOST_EXPECT(same(va[d], t * 100 + d));
		kunmap_local(va[d]);
		thread_yield();
	}
}

static void round_robin_threads_with_nested_maps(void **state)
{
	struct thread *th[RR_T];
	unsigned int t, d;

	(void)state;
	for (t = 0; t < RR_T; t++)
		for (d = 0; d < RR_DEPTH; d++)
			rr_pg[t][d] = host_alloc(ZONE_HIGHMEM);
	for (t = 0; t < RR_T; t++) {
		char name[8];

		snprintf(name, sizeof(name), "t%u", t);
		th[t] = host_spawn_suspended(name, rr_thread, (void *)(uintptr_t)t, HOST_PRIO_MAIN + 1);
	}
	preempt_disable();              /* all queued before the first runs */
	for (t = 0; t < RR_T; t++)
		thread_resume(th[t]);
	preempt_enable();
	for (t = 0; t < RR_T; t++)
		thread_join(th[t]);
	for (t = 0; t < RR_T; t++)
		for (d = 0; d < RR_DEPTH; d++) {
			char *a = kmap(rr_pg[t][d]);

			check(a, t * 100 + d);
			kunmap(rr_pg[t][d]);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(local_write_then_kmap_read),
		HOST_TEST(kmap_write_then_local_read),
		HOST_TEST(kmap_held_while_mapped_locally),
		HOST_TEST(unmapped_slot_faults),
		HOST_TEST(flushed_pkmap_slot_faults),
#if !CONFIG_KMAP_DEFER
		HOST_TEST(switched_out_slot_faults),
#endif
#if CONFIG_KMAP_DEFER
		HOST_TEST(switched_out_slot_stays_reachable),
#endif
		HOST_TEST(round_robin_threads_with_nested_maps),
	};

	return host_run_groups("coherence", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
