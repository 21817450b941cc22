/*
 * lokal/measure.h: each timed loop leaves the caller's maps as it found
 * them, and a caller that did not mask what the loop needs gets a
 * diagnostic naming the call and the thread.
 */
#include <stdio.h>
#include <string.h>
#include "host_test.h"
#include <lokal/measure.h>
#include <lokal/highmem.h>
#include <lokal/irq.h>

static void do_switch_irqs_on(void *a) { (void)a; measure_register_switch(3); }
static void do_work_preemptible(void *a)
{
	uint32_t out, in;

	(void)a;
	measure_kmap_switch_work(4, &out, &in);
}
static void do_move_preemptible(void *a) { measure_map_move(a, 5); }

static void unmasked_callers_are_reported(void **state)
{
	(void)state;
	EXPECT_PANIC(do_switch_irqs_on, NULL, "measure_register_switch(3) in thread 'main'",
		     "interrupts are on");
	EXPECT_PANIC(do_work_preemptible, NULL, "measure_kmap_switch_work(4) in thread 'main'",
		     "preemption is on");
	EXPECT_PANIC(do_move_preemptible, host_alloc(ZONE_HIGHMEM), "measure_map_move(5) in thread 'main'",
		     "preemption is on");
}

/* The caller's maps read the same after 20 switch-outs and -ins, and after 20 moves of another page. */
static void maps_survive_the_loops(void **state)
{
	struct page *pg[3], *spare = host_alloc(ZONE_HIGHMEM);
	char *va[3];
	uint32_t out = ~0u, in = ~0u;

	(void)state;
	for (int i = 0; i < 3; i++) {
		pg[i] = host_alloc(ZONE_HIGHMEM);
		va[i] = kmap_local_page(pg[i]);
		memset(va[i], 'a' + i, PAGE_SIZE);
	}
	preempt_disable();
	measure_kmap_switch_work(20, &out, &in);
	measure_map_move(spare, 20);
	preempt_enable();
	assert_true(out != ~0u && in != ~0u);
	for (int i = 0; i < 3; i++) {
		va[i][7] ^= 1;
		assert_int_equal(va[i][0], 'a' + i);
		assert_int_equal(va[i][PAGE_SIZE - 1], 'a' + i);
	}
	for (int i = 2; i >= 0; i--)
		kunmap_local(va[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(unmasked_callers_are_reported),
		HOST_TEST(maps_survive_the_loops),
	};

	return host_run_groups("measure", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
