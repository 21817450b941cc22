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

static unsigned long slot_va;
static unsigned int flushes, tlb_flushes;

static void count_steps(enum sim_irq_point where, unsigned long va)
{
	if (va != slot_va)
		return;
	flushes += where == SIM_IRQ_AFTER_FLUSH;
	tlb_flushes += where == SIM_IRQ_AFTER_TLB_FLUSH;
}

/*
 * The floor it times is the whole of moving a map: each of the 7 moves
 * cleans and invalidates the slot's lines and invalidates its TLB entry
 * twice (after the clear, after the set), once more each side of the
 * loop, and the slot is left empty.
 */
static void map_move_does_every_step(void **state)
{
	(void)state;
	slot_va = __fix_to_virt(FIX_KMAP_BEGIN + KM_MAX_IDX - 1);
	flushes = tlb_flushes = 0;
	sim_irq_at = count_steps;
	preempt_disable();
	measure_map_move(host_alloc(ZONE_HIGHMEM), 7);
	preempt_enable();
	sim_irq_at = NULL;
	assert_int_equal(flushes, 7);
	assert_int_equal(tlb_flushes, 2 * 7 + 2);
	assert_true(pte_none(*virt_to_kpte(slot_va)));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(unmasked_callers_are_reported),
		HOST_TEST(maps_survive_the_loops),
		HOST_TEST(map_move_does_every_step),
	};

	return host_run_groups("measure", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
