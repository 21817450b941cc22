/*
 * Interrupts landing inside the kmap code's maintenance sequences: inside
 * and after a page's clean+invalidate (before the PTE clear), between the
 * index push and the PTE write, after a TLB invalidate, and so inside
 * kmap_local_sched_out/in. Each "interrupt" maps a page of its own, reads
 * it, writes it and unmaps it, as an IRQ handler may. Every thread's data
 * and the handler's must survive, with zero model violations.
 */
#include <stdio.h>
#include "host_test.h"
#include <asm/irqflags.h>
#include <lokal/platform.h>

static struct page *irq_page;
static unsigned int irq_count[SIM_NR_IRQ_POINTS];
static enum sim_irq_point wanted;
static uint32_t irq_seq;

static void fake_irq(enum sim_irq_point where, unsigned long vaddr)
{
	unsigned long flags;
	uint32_t *p;

	(void)vaddr;
	if (where != wanted)
		return;
	flags = arch_local_irq_save();
	irq_enter();
	p = kmap_local_page(irq_page);
	HOST_EXPECT(p[0] == irq_seq);           /* read first: its lines are cached ... */
	p[0] = ++irq_seq;                       /* ... so this store is a dirty hit */
	p[PAGE_SIZE / 4 - 1] = irq_seq;
	kunmap_local(p);
	irq_exit();
	arch_local_irq_restore(flags);
	irq_count[where]++;
}

static void fill(uint32_t *p, uint32_t v)
{
	for (unsigned int i = 0; i < PAGE_SIZE / 4; i += 4)
		v += p[i];                      /* read-allocate, then dirty hits */
	for (unsigned int i = 0; i < PAGE_SIZE / 4; i += 4)
		p[i] = v + i;
}

static void check(const uint32_t *p, uint32_t v, const char *what)
{
	for (unsigned int i = 0; i < PAGE_SIZE / 4; i += 4)
		if (p[i] != v + i)
			fail_msg("%s: word %u is 0x%x, expected 0x%x", what, i, p[i], v + i);
}

enum { DEPTH = 3 };
static struct page *pb[DEPTH];
static struct semaphore b_go;

/* Above main: maps, is switched out and back in holding its maps, checks, unmaps. */
static void thread_b(void *arg)
{
	uint32_t *vb[DEPTH];
	int d;

	(void)arg;
	for (d = 0; d < DEPTH; d++) {
		vb[d] = kmap_local_page(pb[d]);
		fill(vb[d], 0x10000u + 0x1000u * (unsigned int)d);
	}
	down(&b_go);
	for (d = DEPTH - 1; d >= 0; d--) {
		for (unsigned int i = 0; i < PAGE_SIZE / 4; i += 4)
			HOST_EXPECT(vb[d][i] == 0x10000u + 0x1000u * (unsigned int)d + i);
		kunmap_local(vb[d]);
	}
}

/* Main and thread B with nested maps switching back and forth, an IRQ at `where` every time. */
static void run_with_irq_at(enum sim_irq_point where)
{
	struct page *pa[DEPTH];
	uint32_t *va[DEPTH];
	struct thread *b;
	int d;

	irq_page = host_alloc(ZONE_HIGHMEM);
	irq_seq = 0;
	memset(irq_count, 0, sizeof(irq_count));
	wanted = where;
	sema_init(&b_go, 0);
	for (d = 0; d < DEPTH; d++)
		pb[d] = host_alloc(ZONE_HIGHMEM);
	sim_irq_at = fake_irq;

	for (d = 0; d < DEPTH; d++) {
		va[d] = kmap_local_page(pa[d] = host_alloc(ZONE_HIGHMEM));
		fill(va[d], 0x1000u * (unsigned int)d);
	}
	b = host_spawn("B", thread_b, NULL, HOST_PRIO_MAIN + 1);      /* runs until down() */
	for (d = 0; d < DEPTH; d++)
		check(va[d], 0x1000u * (unsigned int)d, "main after the switches");
	up(&b_go);                              /* B preempts, checks, unmaps, leaves */
	thread_join(b);
	for (d = DEPTH - 1; d >= 0; d--)
		kunmap_local(va[d]);
	sim_irq_at = NULL;

	if (irq_count[where] < 4)
		fail_msg("only %u interrupts landed at point %d", irq_count[where], where);
	for (d = 0; d < DEPTH; d++) {
		uint32_t *k = kmap(pa[d]);

		check(k, 0x1000u * (unsigned int)d, "main's page in memory");
		kunmap(pa[d]);
		k = kmap(pb[d]);
		check(k, 0x10000u + 0x1000u * (unsigned int)d, "B's page in memory");
		kunmap(pb[d]);
	}
	kmap_flush_unused();
	assert_int_equal(((uint32_t *)sim_phys((phys_addr_t)page_to_pfn(irq_page) << PAGE_SHIFT))[0],
			 irq_seq);
}

/* run_with_irq_at() as a test case: its argument is the case's state (HOST_TEST_CASE). */
static void run_with_irq_at_test(void **state)
{
	run_with_irq_at((enum sim_irq_point)(uintptr_t)*state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST_CASE(irq_before_pte_write, run_with_irq_at_test, SIM_IRQ_BEFORE_PTE_WRITE),
		HOST_TEST_CASE(irq_inside_flush, run_with_irq_at_test, SIM_IRQ_IN_FLUSH),
		HOST_TEST_CASE(irq_between_flush_and_pte_clear, run_with_irq_at_test, SIM_IRQ_AFTER_FLUSH),
		HOST_TEST_CASE(irq_after_tlb_invalidate, run_with_irq_at_test, SIM_IRQ_AFTER_TLB_FLUSH),
	};

	return host_run_groups("irq_points", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
