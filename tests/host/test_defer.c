/*
 * KMAP_DEFER (the deferred flush): a switched-out thread's slots keep their PTE, TLB
 * entry and lines; each test below is about one event that must flush such
 * a slot first (its name says which: tests/host/mutants.sh deletes that flush and
 * expects this test to fail), or about one that must not. A missing flush
 * shows up as a model violation (stale lines under a reused address, a read
 * through one alias while the other holds newer data) or as RAM that lacks
 * what the slot's owner wrote.
 *
 * Pattern: main maps and dirties pages (read first: the D-cache allocates
 * on reads only), then a more urgent thread B runs at once and does the
 * thing under test while main's slots are deferred.
 */
#include <stdio.h>
#include "host_test.h"
#include <asm/irqflags.h>
#include <lokal/platform.h>

/* kmap_flush_deferred() on the caller's own map: RAM gets the data, the map stays. */
static void non_cpu_access_own_map(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	char *va;

	(void)state;
	va = kmap_local_page(p);
	host_dirty(va, "for the device");
	assert_false(host_ram_holds(p, "for the device"));
	kmap_flush_deferred(p);
	assert_true(host_ram_holds(p, "for the device"));
	assert_string_equal(va, "for the device");      /* still mapped */
	kunmap_local(va);
}

#if CONFIG_KMAP_DEFER
static struct page *pa, *pb, *px;
static char *va_main;
static struct kmap_defer_stats before;
static struct semaphore b_go;

static void stats_mark(void)
{
	kmap_defer_get_stats(&before);
}

static unsigned long reuse_delta(void)
{
	struct kmap_defer_stats now;

	kmap_defer_get_stats(&now);
	return now.reuse_flushes - before.reuse_flushes;
}

static unsigned long alias_delta(void)
{
	struct kmap_defer_stats now;

	kmap_defer_get_stats(&now);
	return now.alias_flushes - before.alias_flushes;
}

static void run_b(void (*fn)(void *))
{
	thread_join(host_spawn("B", fn, NULL, HOST_PRIO_MAIN + 1));
}

/* main holds pa in slot 0 with dirty lines. */
static void main_holds_pa(const char *s)
{
	pa = host_alloc(ZONE_HIGHMEM);
	pb = host_alloc(ZONE_HIGHMEM);
	px = host_alloc(ZONE_HIGHMEM);
	va_main = kmap_local_page(pa);
	host_dirty(va_main, s);
	stats_mark();
}

/* ---- a different pteval into a deferred slot ---- */

static void b_maps_other_page(void *arg)
{
	char *vb;

	(void)arg;
	vb = kmap_local_page(pb);
	HOST_EXPECT(vb == va_main);             /* the same slot, another page */
	HOST_EXPECT(reuse_delta() == 1);
	HOST_EXPECT(host_ram_holds(pa, "main's"));      /* main's lines went back first */
	host_dirty(vb, "B's");
	kunmap_local(vb);
}

static void defer_reuse_by_map(void **state)
{
	(void)state;
	main_holds_pa("main's");
	run_b(b_maps_other_page);
	assert_string_equal(va_main, "main's"); /* put back at switch-in */
	kunmap_local(va_main);
	assert_true(host_ram_holds(pb, "B's"));
}

/* B leaves holding pb in slot 0; main's switch-in must flush it before pa goes back. */
static void b_holds_and_blocks(void *arg)
{
	char *vb;

	(void)arg;
	vb = kmap_local_page(pb);
	host_dirty(vb, "B's, deferred");
	stats_mark();
	down(&b_go);                            /* main runs again: its switch-in */
	HOST_EXPECT(strcmp(vb, "B's, deferred") == 0);
	kunmap_local(vb);
}

static void defer_reuse_by_sched_in(void **state)
{
	struct thread *b;

	(void)state;
	main_holds_pa("main's");
	sema_init(&b_go, 0);
	b = host_spawn("B", b_holds_and_blocks, NULL, HOST_PRIO_MAIN + 1);
	/* Back in main: slot 0 held B's pb until this switch-in flushed it. */
	assert_int_equal(reuse_delta(), 1);
	assert_true(host_ram_holds(pb, "B's, deferred"));
	assert_string_equal(va_main, "main's");
	up(&b_go);
	thread_join(b);
	kunmap_local(va_main);
}

/* ---- the same page in the same slot: no flush ---- */

static void b_maps_same_page(void *arg)
{
	struct sim_stats s0, s1;
	struct kmap_defer_stats now;
	char *vb;

	(void)arg;
	sim_get_stats(&s0);
	vb = kmap_local_page(pa);
	sim_get_stats(&s1);
	kmap_defer_get_stats(&now);
	HOST_EXPECT(vb == va_main);
	HOST_EXPECT(now.shared_maps - before.shared_maps == 1);
	HOST_EXPECT(reuse_delta() == 0 && alias_delta() == 0);
	HOST_EXPECT(s1.writebacks == s0.writebacks);    /* nothing written back */
	HOST_EXPECT(!host_ram_holds(pa, "shared"));             /* main's lines still only in the cache */
	HOST_EXPECT(strcmp(vb, "shared") == 0);         /* and B reads them there */
	strcpy(vb, "shared, then B");
	kunmap_local(vb);
}

static void defer_same_page_same_slot_no_flush(void **state)
{
	(void)state;
	main_holds_pa("shared");
	run_b(b_maps_same_page);
	assert_string_equal(va_main, "shared, then B");
	kunmap_local(va_main);
}

/* ---- a new alias of a page a deferred slot holds ---- */

enum alias_kind { ALIAS_LOCAL, ALIAS_ATOMIC, ALIAS_PFN };
static enum alias_kind alias_kind;

/* main holds px in slot 0 and pa in slot 1; B's first map (slot 0) is of pa. */
static void b_aliases_pa(void *arg)
{
	char *vb;

	(void)arg;
	if (alias_kind == ALIAS_ATOMIC)
		vb = kmap_atomic(pa);
	else if (alias_kind == ALIAS_PFN)
		vb = kmap_local_pfn(page_to_pfn(pa));
	else
		vb = kmap_local_page(pa);
	HOST_EXPECT(vb != va_main);             /* another address for pa */
	HOST_EXPECT(alias_delta() == 1);
	HOST_EXPECT(strcmp(vb, "aliased") == 0);
	host_dirty(vb, "aliased, then B");
	if (alias_kind == ALIAS_ATOMIC)
		kunmap_atomic(vb);
	else
		kunmap_local(vb);
}

static void alias_case(enum alias_kind kind)
{
	char *vx;

	alias_kind = kind;
	pa = host_alloc(ZONE_HIGHMEM);
	px = host_alloc(ZONE_HIGHMEM);
	vx = kmap_local_page(px);
	host_dirty(vx, "main's other page");
	va_main = kmap_local_page(pa);
	host_dirty(va_main, "aliased");
	stats_mark();
	run_b(b_aliases_pa);
	assert_string_equal(va_main, "aliased, then B");
	assert_string_equal(vx, "main's other page");
	kunmap_local(va_main);
	kunmap_local(vx);
}

/* A lowmem page never reaches a slot, so it has no deferred alias to flush. */
static void defer_lowmem_view_takes_no_slot(void **state)
{
	struct page *low = host_alloc(ZONE_LOWMEM);
	char *v1, *v2;

	(void)state;
	v1 = kmap_local_page(low);
	v2 = kmap_local_pfn(page_to_pfn(low));
	assert_ptr_equal(v1, page_address(low));
	assert_ptr_equal(v2, page_address(low));
	assert_int_equal(current->kmap_ctrl.idx, 0);
	kunmap_local(v2);
	kunmap_local(v1);
}

/* B maps px in slot 0 and main's pa in slot 1, dirties pa and blocks: main's switch-in must flush slot 1. */
static void b_takes_pa_higher(void *arg)
{
	char *vx, *vb;

	(void)arg;
	vx = kmap_local_page(px);
	vb = kmap_local_page(pa);
	HOST_EXPECT(strcmp(vb, "main's") == 0);
	host_dirty(vb, "B wrote main's page");
	stats_mark();
	down(&b_go);
	kunmap_local(vb);
	kunmap_local(vx);
}

static void defer_alias_by_sched_in(void **state)
{
	struct thread *b;

	(void)state;
	main_holds_pa("main's");
	sema_init(&b_go, 0);
	b = host_spawn("B", b_takes_pa_higher, NULL, HOST_PRIO_MAIN + 1);
	/* main's pa goes back into slot 0 while B's slot 1 still held it. */
	assert_int_equal(alias_delta(), 1);
	assert_string_equal(va_main, "B wrote main's page");
	up(&b_go);
	thread_join(b);
	kunmap_local(va_main);
}

/* kmap() gives pa its first pkmap address while main's slot holds it. */
static void b_kmaps_pa(void *arg)
{
	char *k;

	(void)arg;
	k = kmap(pa);
	HOST_EXPECT(alias_delta() == 1);
	HOST_EXPECT(strcmp(k, "main's") == 0);
	kunmap(pa);
}

static void defer_alias_by_new_pkmap(void **state)
{
	(void)state;
	main_holds_pa("main's");
	run_b(b_kmaps_pa);
	assert_string_equal(va_main, "main's");
	kunmap_local(va_main);
	kmap_flush_unused();
}

/*
 * kmap_high_get hit: pa got its pkmap address (B, kmap) after main's slot
 * map; main then wrote through its slot again; B's kmap_local_page(pa)
 * returns the pkmap address and must flush main's slot first.
 */
static void b_kmaps_then_maps_locally(void *arg)
{
	char *k;

	(void)arg;
	k = kmap(pa);                           /* flushes main's slot; touches nothing */
	down(&b_go);                            /* main writes through its slot again */
	stats_mark();
	{
		char *v = kmap_local_page(pa);

		HOST_EXPECT(v == k);
		HOST_EXPECT(alias_delta() == 1);
		HOST_EXPECT(strcmp(v, "main, after the kmap") == 0);
		kunmap_local(v);
	}
	kunmap(pa);
}

static void defer_alias_by_kmap_high_get(void **state)
{
	struct thread *b;

	(void)state;
	main_holds_pa("main's");
	sema_init(&b_go, 0);
	b = host_spawn("B", b_kmaps_then_maps_locally, NULL, HOST_PRIO_MAIN + 1);
	host_dirty(va_main, "main, after the kmap");         /* its slot was put back */
	up(&b_go);
	thread_join(b);
	kunmap_local(va_main);
	kmap_flush_unused();
}

/* ---- the page freed while a deferred slot holds it ---- */

static void b_frees_pa(void *arg)
{
	(void)arg;
	__free_page(pa);
	HOST_EXPECT(alias_delta() == 1);
	HOST_EXPECT(host_ram_holds(pa, "main's"));      /* nothing left to land on the next owner */
	HOST_EXPECT(pte_none(*virt_to_kpte((unsigned long)va_main)));
}

static void defer_free_flushes(void **state)
{
	(void)state;
	main_holds_pa("main's");
	run_b(b_frees_pa);
	/* main's map was a bug from here on; unmap without touching it. */
	kunmap_local(va_main);
}

/* ---- non-CPU access ---- */

static void b_hands_pa_to_a_device(void *arg)
{
	(void)arg;
	kmap_flush_deferred(pa);
	HOST_EXPECT(alias_delta() == 1);
	HOST_EXPECT(host_ram_holds(pa, "main's, for DMA"));
}

static void defer_non_cpu_access(void **state)
{
	(void)state;
	main_holds_pa("main's, for DMA");
	run_b(b_hands_pa_to_a_device);
	assert_string_equal(va_main, "main's, for DMA");
	kunmap_local(va_main);
}

/* ---- switch-in costs nothing for the thread that still owns the slots ---- */

static void b_no_maps(void *arg)
{
	(void)arg;
	down(&b_go);
}

static void defer_owner_switch_in_does_nothing(void **state)
{
	struct kmap_defer_stats s0, s1;
	struct sim_stats m0, m1;
	struct thread *b;

	(void)state;
	main_holds_pa("main's");
	sema_init(&b_go, 0);
	kmap_defer_get_stats(&s0);
	sim_get_stats(&m0);
	b = host_spawn("B", b_no_maps, NULL, HOST_PRIO_MAIN + 1);
	up(&b_go);
	thread_join(b);
	kmap_defer_get_stats(&s1);
	sim_get_stats(&m1);
	assert_int_equal(s1.walks, s0.walks);
	assert_int_equal(s1.reuse_flushes + s1.alias_flushes, s0.reuse_flushes + s0.alias_flushes);
	assert_false(host_ram_holds(pa, "main's"));     /* still only in main's lines */
	assert_string_equal(va_main, "main's");
	kunmap_local(va_main);
}

/* ---- interrupts inside each step of a deferred flush ---- */

static enum sim_irq_point irq_where;
static unsigned int irq_landed;

/* The IRQ maps main's deferred pa (an alias: it flushes that slot itself) and px. */
static void irq_maps(enum sim_irq_point where, unsigned long vaddr)
{
	unsigned long flags;
	char *v, *w;

	(void)vaddr;
	if (where != irq_where || irq_landed)
		return;
	irq_landed++;
	flags = arch_local_irq_save();
	irq_enter();
	v = kmap_local_page(pa);
	HOST_EXPECT(strcmp(v, "main's") == 0);
	w = kmap_local_page(px);
	host_dirty(w, "the IRQ's");
	kunmap_local(w);
	kunmap_local(v);
	irq_exit();
	arch_local_irq_restore(flags);
}

static void b_maps_with_irq(void *arg)
{
	char *vb;

	(void)arg;
	sim_irq_at = irq_maps;
	vb = kmap_local_page(pb);               /* flushes main's slot 0: the IRQ lands inside */
	sim_irq_at = NULL;
	host_dirty(vb, "B's");
	kunmap_local(vb);
}

static void irq_case(enum sim_irq_point where)
{
	irq_where = where;
	irq_landed = 0;
	main_holds_pa("main's");
	run_b(b_maps_with_irq);
	if (!irq_landed)
		fail_msg("no interrupt landed at point %d", where);
	assert_string_equal(va_main, "main's");
	kunmap_local(va_main);
	assert_true(host_ram_holds(pa, "main's"));
	assert_true(host_ram_holds(pb, "B's"));
	assert_true(host_ram_holds(px, "the IRQ's"));
}

/* ---- a wake-up inside the preemptible part of a map's or unmap's flush ---- */

static struct semaphore b_end;
static bool b_saw_main_mid_op;
static struct thread *main_thread;

static void irq_wakes_b(enum sim_irq_point where, unsigned long vaddr)
{
	unsigned long flags;

	(void)vaddr;
	if (where != irq_where || irq_landed)
		return;
	irq_landed++;
	flags = arch_local_irq_save();
	irq_enter();
	up(&b_go);
	irq_exit();                             /* B outranks main: it runs now */
	arch_local_irq_restore(flags);
}

/* Woken inside main's unmap: takes main's slot for another page, blocks holding it. */
static void b_maps_mid_unmap(void *arg)
{
	char *vb;

	(void)arg;
	down(&b_go);
	b_saw_main_mid_op = main_thread->kmap_ctrl.idx == 1;
	vb = kmap_local_page(pb);
	host_dirty(vb, "B's");
	down(&b_end);
	HOST_EXPECT(strcmp(vb, "B's") == 0);
	kunmap_local(vb);
}

static void preempted_in_unmap(enum sim_irq_point where)
{
	struct thread *b;

	main_thread = current;
	main_holds_pa("main's");
	sema_init(&b_go, 0);
	sema_init(&b_end, 0);
	b = host_spawn("B", b_maps_mid_unmap, NULL, HOST_PRIO_MAIN + 1);        /* blocks */
	irq_where = where;
	irq_landed = 0;
	b_saw_main_mid_op = false;
	sim_irq_at = irq_wakes_b;
	kunmap_local(va_main);
	sim_irq_at = NULL;
	assert_true(irq_landed);
	assert_true(b_saw_main_mid_op);         /* B ran before main's unmap ended */
	assert_true(host_ram_holds(pa, "main's"));
	assert_true(pte_none(*virt_to_kpte((unsigned long)va_main)) ||
		    *virt_to_kpte((unsigned long)va_main) == mk_pte(pb, PAGE_KERNEL));
	up(&b_end);
	thread_join(b);
	assert_true(host_ram_holds(pb, "B's"));
}

/* B holds pb in slot 0; woken inside main's map of pa (which flushes pb), it writes pb again. */
static void b_holds_pb(void *arg)
{
	char *vb;

	(void)arg;
	vb = kmap_local_page(pb);
	host_dirty(vb, "B's");
	down(&b_go);
	b_saw_main_mid_op = main_thread->kmap_ctrl.idx == 1;
	strcpy(vb, "B's, again");
	down(&b_end);
	HOST_EXPECT(strcmp(vb, "B's, again") == 0);
	kunmap_local(vb);
}

static void preempted_in_map(enum sim_irq_point where)
{
	struct thread *b;

	main_thread = current;
	pa = host_alloc(ZONE_HIGHMEM);
	pb = host_alloc(ZONE_HIGHMEM);
	sema_init(&b_go, 0);
	sema_init(&b_end, 0);
	b = host_spawn("B", b_holds_pb, NULL, HOST_PRIO_MAIN + 1);              /* blocks holding pb */
	irq_where = where;
	irq_landed = 0;
	b_saw_main_mid_op = false;
	sim_irq_at = irq_wakes_b;
	va_main = kmap_local_page(pa);
	sim_irq_at = NULL;
	assert_true(irq_landed);
	assert_true(b_saw_main_mid_op);
	host_dirty(va_main, "main's");
	up(&b_end);                             /* B's switch-in flushes main's pa */
	thread_join(b);
	assert_true(host_ram_holds(pb, "B's, again"));
	assert_string_equal(va_main, "main's");
	kunmap_local(va_main);
	assert_true(host_ram_holds(pa, "main's"));
}

/* alias_case() as a test case: its argument is the case's state (HOST_TEST_CASE). */
static void alias_case_test(void **state)
{
	alias_case((enum alias_kind)(uintptr_t)*state);
}

/* irq_case() as a test case: its argument is the case's state (HOST_TEST_CASE). */
static void irq_case_test(void **state)
{
	irq_case((enum sim_irq_point)(uintptr_t)*state);
}

/* preempted_in_map() as a test case: its argument is the case's state (HOST_TEST_CASE). */
static void preempted_in_map_test(void **state)
{
	preempted_in_map((enum sim_irq_point)(uintptr_t)*state);
}

/* preempted_in_unmap() as a test case: its argument is the case's state (HOST_TEST_CASE). */
static void preempted_in_unmap_test(void **state)
{
	preempted_in_unmap((enum sim_irq_point)(uintptr_t)*state);
}

#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(non_cpu_access_own_map),
#if CONFIG_KMAP_DEFER
		HOST_TEST(defer_reuse_by_map),
		HOST_TEST(defer_reuse_by_sched_in),
		HOST_TEST(defer_same_page_same_slot_no_flush),
		HOST_TEST_CASE(defer_alias_by_local_map, alias_case_test, ALIAS_LOCAL),
		HOST_TEST_CASE(defer_alias_by_kmap_atomic, alias_case_test, ALIAS_ATOMIC),
		HOST_TEST_CASE(defer_alias_by_kmap_local_pfn, alias_case_test, ALIAS_PFN),
		HOST_TEST(defer_lowmem_view_takes_no_slot),
		HOST_TEST(defer_alias_by_sched_in),
		HOST_TEST(defer_alias_by_new_pkmap),
		HOST_TEST(defer_alias_by_kmap_high_get),
		HOST_TEST(defer_free_flushes),
		HOST_TEST(defer_non_cpu_access),
		HOST_TEST(defer_owner_switch_in_does_nothing),
		HOST_TEST_CASE(defer_irq_inside_flush, irq_case_test, SIM_IRQ_IN_FLUSH),
		HOST_TEST_CASE(defer_irq_after_flush, irq_case_test, SIM_IRQ_AFTER_FLUSH),
		HOST_TEST_CASE(defer_irq_before_pte_write, irq_case_test, SIM_IRQ_BEFORE_PTE_WRITE),
		HOST_TEST_CASE(defer_irq_after_tlb_flush, irq_case_test, SIM_IRQ_AFTER_TLB_FLUSH),
		HOST_TEST_CASE(defer_preempted_inside_unmap_flush, preempted_in_unmap_test, SIM_IRQ_IN_FLUSH),
		HOST_TEST_CASE(defer_preempted_after_unmap_flush, preempted_in_unmap_test, SIM_IRQ_AFTER_FLUSH),
		HOST_TEST_CASE(defer_preempted_inside_map_flush, preempted_in_map_test, SIM_IRQ_IN_FLUSH),
		HOST_TEST_CASE(defer_preempted_after_map_flush, preempted_in_map_test, SIM_IRQ_AFTER_FLUSH),
#endif
	};

	return host_run_groups("defer", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
