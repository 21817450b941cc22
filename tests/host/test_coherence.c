/*
 * Coherence through the model: the real kmap code, data moved between the
 * mapping paths, zero violations (checked after every test). The target
 * runs the same sequences as its board bring-up check; here a missing
 * flush fails them.
 */
#include <stdio.h>
#include "host_test.h"

#define SLOT(n)         __fix_to_virt(FIX_KMAP_BEGIN + (n))

static void fill(char *va, unsigned int seed)
{
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

#if !CONFIG_KMAP_LAZY
/* A thread switched out leaves nothing reachable behind (lazy mode keeps it on purpose). */
static void switched_out_slot_faults(void **state)
{
	struct thread a, b;
	char *va;

	(void)state;
	host_thread_init(&a, "A");
	host_thread_init(&b, "B");
	current = &a;
	va = kmap_local_page(host_alloc(ZONE_HIGHMEM));
	fill(va, 3);
	host_switch_to(&b);
	EXPECT_ABORT(do_touch, va, "thread 'B'", "not mapped");
	current = &host_boot_thread;
}
#endif

/* Many threads, nested maps, switches between every step. */
static void round_robin_threads_with_nested_maps(void **state)
{
	enum { T = 4, DEPTH = 5, ROUNDS = 6 };
	static struct thread th[T];
	static struct page *pg[T][DEPTH];
	static char *va[T][DEPTH];
	unsigned int t, d, r;

	(void)state;
	for (t = 0; t < T; t++) {
		char name[8];

		snprintf(name, sizeof(name), "t%u", t);
		host_thread_init(&th[t], name);
	}
	current = &th[0];
	for (r = 0; r < ROUNDS; r++)
		for (t = 0; t < T; t++) {
			host_switch_to(&th[t]);
			if (r < DEPTH) {                /* push one more map */
				pg[t][r] = host_alloc(ZONE_HIGHMEM);
				va[t][r] = kmap_local_page(pg[t][r]);
				fill(va[t][r], t * 100 + r);
			}
			for (d = 0; d < DEPTH && d <= r; d++)
				check(va[t][d], t * 100 + d);
		}
	for (t = 0; t < T; t++) {
		host_switch_to(&th[t]);
		for (d = DEPTH; d-- > 0;) {
			check(va[t][d], t * 100 + d);
			kunmap_local(va[t][d]);
			host_switch_to(&th[(t + 1) % T]);
			host_switch_to(&th[t]);
		}
	}
	current = &host_boot_thread;
	for (t = 0; t < T; t++)
		for (d = 0; d < DEPTH; d++) {
			char *a = kmap(pg[t][d]);

			check(a, t * 100 + d);
			kunmap(pg[t][d]);
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
#if !CONFIG_KMAP_LAZY
		HOST_TEST(switched_out_slot_faults),
#endif
		HOST_TEST(round_robin_threads_with_nested_maps),
	};

	return cmocka_run_group_tests_name("coherence", tests, NULL, NULL);
}
