/* kmap_local / kmap_atomic: slot arithmetic, bookkeeping, data, switches. */
#include <stdio.h>
#include "host_test.h"
#include <asm/irqflags.h>
#include <lokal/platform.h>

#define SLOT(n)         __fix_to_virt(FIX_KMAP_BEGIN + (n))
#define MAX_NEST        16

static unsigned int pte_count(void)
{
	unsigned int n = 0;

	for (int i = 0; i < KM_MAX_IDX; i++)
		n += !pte_none(*virt_to_kpte(SLOT(i)));
	return n;
}

static phys_addr_t pa_of(const struct page *p)
{
	return (phys_addr_t)page_to_pfn(p) << PAGE_SHIFT;
}

static void slots_count_down_from_fixaddr_top(void **state)
{
	(void)state;
	assert_int_equal(SLOT(0), FIXADDR_TOP);
	assert_int_equal(SLOT(1), FIXADDR_TOP - PAGE_SIZE);
	assert_int_equal(__virt_to_fix(SLOT(7) + 123), 7);
	assert_int_equal(kmap_local_slot(SLOT(KM_MAX_IDX - 1)), KM_MAX_IDX - 1);
	assert_true(SLOT(FIX_KMAP_END - FIX_KMAP_BEGIN) >= FIXADDR_START);
}

static void lowmem_maps_to_direct_map_and_touches_nothing(void **state)
{
	struct page *lo = host_alloc(ZONE_LOWMEM);
	void *a;

	(void)state;
	a = kmap_local_page(lo);
	assert_ptr_equal(a, page_address(lo));
	assert_int_equal(current->kmap_ctrl.idx, 0);
	assert_int_equal(current->migrate_disabled, 0);
	assert_int_equal(pte_count(), 0);
	kunmap_local(a);
	a = kmap_atomic(lo);
	assert_ptr_equal(a, page_address(lo));
	assert_int_equal(preempt_count(), 1);
	kunmap_atomic(a);
	assert_int_equal(preempt_count(), 0);
	assert_int_equal(pte_count(), 0);
}

static void highmem_map_fills_first_slot(void **state)
{
	struct page *hi = host_alloc(ZONE_HIGHMEM);
	unsigned long a;

	(void)state;
	a = (unsigned long)kmap_local_page(hi);
	assert_int_equal(a, SLOT(KM_INCR - 1));
	assert_int_equal(current->kmap_ctrl.idx, KM_INCR);
	assert_int_equal(current->kmap_ctrl.pteval[KM_INCR - 1], mk_pte(hi, PAGE_KERNEL));
	assert_int_equal(*virt_to_kpte(a), mk_pte(hi, PAGE_KERNEL));
	assert_int_equal(current->migrate_disabled, 1);
	assert_int_equal(preempt_count(), 0);
	assert_ptr_equal(kmap_to_page((void *)(a + 77)), hi);
	kunmap_local((void *)(a + 4000));       /* any address inside the page */
	assert_int_equal(current->kmap_ctrl.idx, 0);
	assert_int_equal(current->kmap_ctrl.pteval[KM_INCR - 1], 0);
	assert_int_equal(pte_count(), 0);
	assert_int_equal(current->migrate_disabled, 0);
}

static void sixteen_nested_maps_unmap_in_reverse(void **state)
{
	struct page *pg[MAX_NEST];
	char *va[MAX_NEST];
	int i;

	(void)state;
	for (i = 0; i < MAX_NEST; i++) {
		pg[i] = host_alloc(ZONE_HIGHMEM);
		va[i] = kmap_local_page(pg[i]);
		assert_int_equal((unsigned long)va[i], SLOT((i + 1) * KM_INCR - 1));
		(void)*(volatile char *)va[i];  /* read-allocate: the stores below are dirty hits */
		memset(va[i], 'a' + i, PAGE_SIZE);
	}
	assert_int_equal(current->kmap_ctrl.idx, MAX_NEST * KM_INCR);
	assert_int_equal(pte_count(), MAX_NEST);
	for (i = 0; i < MAX_NEST; i++)
		assert_int_equal(va[i][PAGE_SIZE - 1], 'a' + i);
	for (i = MAX_NEST - 1; i >= 0; i--)
		kunmap_local(va[i]);
	assert_int_equal(pte_count(), 0);
	assert_int_equal(current->migrate_disabled, 0);
	/* The data reached RAM: the unmaps wrote the lines back. */
	for (i = 0; i < MAX_NEST; i++) {
		assert_int_equal(sim_phys(pa_of(pg[i]))[0], 'a' + i);
		assert_int_equal(sim_phys(pa_of(pg[i]))[PAGE_SIZE - 1], 'a' + i);
	}
}

static void kmap_atomic_disables_preemption_and_faults(void **state)
{
	struct page *hi = host_alloc(ZONE_HIGHMEM);
	void *a, *b;

	(void)state;
	a = kmap_atomic(hi);
	assert_int_equal(preempt_count(), 1);
	assert_true(pagefault_disabled());
	b = kmap_atomic_pfn(page_to_pfn(hi) + 1);
	assert_int_equal(preempt_count(), 2);
	assert_int_equal((unsigned long)b, SLOT(2 * KM_INCR - 1));
	kunmap_atomic(b);
	kunmap_atomic(a);
	assert_int_equal(preempt_count(), 0);
	assert_false(pagefault_disabled());
	assert_int_equal(pte_count(), 0);
}

/*
 * A stale read through the cache model: the direct map holds a lowmem
 * page's lines while data goes in through kmap_local_pfn()/kmap_atomic_pfn().
 * A second (slot) alias would leave the direct map hitting old lines (a
 * stale read); with the direct-map address returned there is one alias.
 */
static void lowmem_pfn_map_makes_no_second_alias(void **state)
{
	struct page *lo = host_alloc(ZONE_LOWMEM);
	char *direct = page_address(lo), *a;

	(void)state;
	sim_install_fault_handler();            /* cmocka replaced it after the set-up */
	(void)*(volatile char *)direct;         /* the direct map caches the page */
	a = kmap_local_pfn(page_to_pfn(lo));
	(void)*(volatile char *)a;
	strcpy(a, "through kmap_local_pfn");    /* a hit: dirty in the cache */
	kunmap_local(a);
	assert_string_equal(direct, "through kmap_local_pfn");
	a = kmap_atomic_pfn(page_to_pfn(lo));
	(void)*(volatile char *)a;
	strcpy(a, "through kmap_atomic_pfn");
	kunmap_atomic(a);
	assert_string_equal(direct, "through kmap_atomic_pfn");
	assert_int_equal(sim_violations(SIM_STALE_READ), 0);
}

static void pfn_and_prot_variants(void **state)
{
	struct page *lo = host_alloc(ZONE_LOWMEM), *hi = host_alloc(ZONE_HIGHMEM);
	void *a, *b;

	(void)state;
	/* A lowmem pfn gets its direct-map address: no slot, no second VIVT alias. */
	a = kmap_local_pfn(page_to_pfn(lo));
	assert_ptr_equal(a, page_address(lo));
	assert_int_equal(current->kmap_ctrl.idx, 0);
	assert_int_equal(pte_count(), 0);
	b = kmap_local_page_prot(hi, PAGE_KERNEL_NOCACHE);
	assert_int_equal(*virt_to_kpte((unsigned long)b), mk_pte(hi, PAGE_KERNEL_NOCACHE));
	strcpy(b, "uncached");
	kunmap_local(b);
	strcpy(a, "lowmem, direct map");
	kunmap_local(a);
	assert_string_equal((char *)page_address(lo), "lowmem, direct map");
	assert_string_equal((char *)sim_phys(pa_of(hi)), "uncached");
}

static void helpers_copy_and_clear(void **state)
{
	struct page *x = host_alloc(ZONE_HIGHMEM), *y = host_alloc(ZONE_HIGHMEM);
	struct page *lo = host_alloc(ZONE_LOWMEM);
	char buf[64];

	(void)state;
	memset_page(x, 0, 0xee, PAGE_SIZE);
	memcpy_to_page(x, 100, "hello, highmem", 15);
	memcpy_from_page(buf, x, 100, 15);
	assert_string_equal(buf, "hello, highmem");
	memcpy_page(y, 10, x, 100, 15);
	memcpy_from_page(buf, y, 10, 15);
	assert_string_equal(buf, "hello, highmem");
	copy_highpage(lo, x);
	assert_string_equal((char *)page_address(lo) + 100, "hello, highmem");
	assert_int_equal(((unsigned char *)page_address(lo))[4095], 0xee);
	memzero_page(x, 100, 5);
	memcpy_from_page(buf, x, 100, 15);
	assert_string_equal(buf + 5, ", highmem");
	assert_int_equal(buf[0], 0);
	clear_highpage(x);
	for (unsigned long i = 0; i < PAGE_SIZE; i += 512)
		assert_int_equal(sim_phys(pa_of(x))[i], 0);
	assert_int_equal(current->kmap_ctrl.idx, 0);
}

static void do_helper_overrun(void *arg)
{
	memset_page(arg, 4000, 0, 200);
}

static void helper_range_is_checked(void **state)
{
	(void)state;
	EXPECT_PANIC(do_helper_overrun, host_alloc(ZONE_HIGHMEM), "memset_page",
		     "offset 4000 + length 200 runs past the end of the page");
}

/* Two threads share slot numbers; the switch must keep their pages apart. */
static struct page *sw_pa, *sw_pa2, *sw_pb;
static char *sw_va;
static struct semaphore sw_b_go;

/* Runs above main: first while main holds two maps, then after main unmapped them. */
static void thread_b(void *arg)
{
	char *vb;

	(void)arg;
#if !CONFIG_KMAP_DEFER
	HOST_EXPECT(pte_count() == 0);          /* main's maps are gone from the slots */
#endif
#if !CONFIG_KMAP_DEFER
	/* main's writes reached RAM when it left the CPU. */
	HOST_EXPECT(strcmp((char *)sim_phys(pa_of(sw_pa)), "A's first page") == 0);
#endif
	vb = kmap_local_page(sw_pb);
	HOST_EXPECT(vb == sw_va);               /* same slot, different page */
	/* Deferred: main's writes reached RAM when B took the slot. */
	HOST_EXPECT(strcmp((char *)sim_phys(pa_of(sw_pa)), "A's first page") == 0);
	(void)*(volatile char *)vb;
	strcpy(vb, "B's page");
	down(&sw_b_go);                         /* main runs again, with its maps back */
	HOST_EXPECT(strcmp(vb, "B's page") == 0);
	kunmap_local(vb);
	HOST_EXPECT(pte_count() == 0);
	HOST_EXPECT(strcmp((char *)sim_phys(pa_of(sw_pa2)), "A again") == 0);
	HOST_EXPECT(strcmp((char *)sim_phys(pa_of(sw_pb)), "B's page") == 0);
}

static void switch_keeps_maps_per_thread(void **state)
{
	struct thread *b;
	char *va2;

	(void)state;
	sw_pa = host_alloc(ZONE_HIGHMEM);
	sw_pa2 = host_alloc(ZONE_HIGHMEM);
	sw_pb = host_alloc(ZONE_HIGHMEM);
	sema_init(&sw_b_go, 0);
	sw_va = kmap_local_page(sw_pa);
	va2 = kmap_local_page(sw_pa2);
	(void)*(volatile char *)sw_va;          /* cached: the stores below are dirty hits */
	(void)*(volatile char *)va2;
	strcpy(sw_va, "A's first page");
	strcpy(va2, "A's second page");

	b = host_spawn("B", thread_b, NULL, HOST_PRIO_MAIN + 1);       /* runs at once */
	assert_int_equal(*virt_to_kpte((unsigned long)sw_va), mk_pte(sw_pa, PAGE_KERNEL));
	assert_string_equal(sw_va, "A's first page");
	assert_string_equal(va2, "A's second page");
	strcpy(va2, "A again");
	kunmap_local(va2);
	kunmap_local(sw_va);
	up(&sw_b_go);                           /* B preempts, checks and leaves */
	thread_join(b);
}

/* An interrupt mapping during the switch nests above the thread's index. */
static void irq_map_between_sched_out_and_in(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM), *q = host_alloc(ZONE_HIGHMEM);
	char *va, *irq_va;

	(void)state;
	va = kmap_local_page(p);
	(void)*(volatile char *)va;
	strcpy(va, "thread data");
	preempt_disable();
	kmap_local_sched_out(current);          /* what a switch away from main does */
	/* "IRQ": map, use, unmap on the slot above the thread's stack. */
	irq_va = kmap_local_page(q);
	assert_int_equal((unsigned long)irq_va, SLOT(2 * KM_INCR - 1));
	(void)*(volatile char *)irq_va;
	strcpy(irq_va, "irq data");
	kunmap_local(irq_va);
	kmap_local_sched_in(current);
	preempt_enable();
	assert_string_equal(va, "thread data");
	kunmap_local(va);
	assert_string_equal((char *)sim_phys(pa_of(q)), "irq data");
}

/*
 * A handler mapping the page the interrupted thread has mapped: the thread's
 * dirty lines reach RAM before the handler reads, and the thread reads what
 * the handler wrote once it returns.
 */
static void irq_maps_interrupted_threads_page(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	unsigned long flags;
	char *va, *irq_va;

	(void)state;
	va = kmap_local_page(p);
	(void)*(volatile char *)va;             /* allocate the line: the write stays dirty */
	strcpy(va, "thread data");
	flags = arch_local_irq_save();
	irq_enter();
	irq_va = kmap_local_page(p);
	assert_ptr_not_equal(irq_va, va);
	assert_string_equal(irq_va, "thread data");
	strcpy(irq_va, "irq data");
	kunmap_local(irq_va);
	irq_exit();
	arch_local_irq_restore(flags);
	assert_string_equal(va, "irq data");
	kunmap_local(va);
	assert_string_equal((char *)sim_phys(pa_of(p)), "irq data");
}

/* A nested map of a page the thread already maps, used while it lives. */
static void nested_map_of_same_page(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM), *q = host_alloc(ZONE_HIGHMEM);
	char *va, *vq, *va2;

	(void)state;
	va = kmap_local_page(p);
	(void)*(volatile char *)va;
	strcpy(va, "outer");
	vq = kmap_local_page(q);
	va2 = kmap_local_page(p);
	assert_string_equal(va2, "outer");
	strcpy(va2, "inner");
	kunmap_local(va2);
	kunmap_local(vq);
	assert_string_equal(va, "inner");
	kunmap_local(va);
}

static void fork_starts_empty(void **state)
{
	struct thread t = { .name = "child" };
	unsigned int warns = warn_count;

	(void)state;
	t.kmap_ctrl.pteval[3] = 0x1234;
	kmap_local_fork(&t);
	assert_int_equal(t.kmap_ctrl.pteval[3], 0);
	assert_int_equal(warn_count, warns);
	t.kmap_ctrl.idx = 2;
	kmap_local_fork(&t);
	assert_int_equal(t.kmap_ctrl.idx, 0);
	assert_int_equal(warn_count, warns + 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(slots_count_down_from_fixaddr_top),
		HOST_TEST(lowmem_maps_to_direct_map_and_touches_nothing),
		HOST_TEST(highmem_map_fills_first_slot),
		HOST_TEST(sixteen_nested_maps_unmap_in_reverse),
		HOST_TEST(kmap_atomic_disables_preemption_and_faults),
		HOST_TEST(lowmem_pfn_map_makes_no_second_alias),
		HOST_TEST(pfn_and_prot_variants),
		HOST_TEST(helpers_copy_and_clear),
		HOST_TEST(helper_range_is_checked),
		HOST_TEST(switch_keeps_maps_per_thread),
		HOST_TEST(irq_map_between_sched_out_and_in),
		HOST_TEST(irq_maps_interrupted_threads_page),
		HOST_TEST(nested_map_of_same_page),
		HOST_TEST(fork_starts_empty),
	};

	return host_run_groups("kmap_local", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
