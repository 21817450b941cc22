/*
 * Local kmaps survive preemption: the scheduler tears a thread's maps down
 * when it is switched out and restores them when it comes back.
 */
#include <string.h>
#include <lokal/highmem.h>
#include <lokal/thread.h>
#include <lokal/mutex.h>
#include <lokal/irq.h>
#include <lokal/app.h>
#include "ktest.h"

static uint32_t tag(struct page *pg, uint32_t salt)
{
	return (uint32_t)page_to_pfn(pg) * 0x01000193u ^ salt;
}

static void fill(uint32_t *p, struct page *pg, uint32_t salt)
{
	for (unsigned int w = 0; w < PAGE_SIZE / 4; w++)
		p[w] = tag(pg, salt) + w;
}

static unsigned int bad_words(const uint32_t *p, struct page *pg, uint32_t salt)
{
	unsigned int bad = 0;

	for (unsigned int w = 0; w < PAGE_SIZE / 4; w++)
		bad += p[w] != tag(pg, salt) + w;
	return bad;
}

/* Through the pkmap pool: a different path than the maps under test. */
static unsigned int bad_via_kmap(struct page *pg, uint32_t salt)
{
	uint32_t *p = kmap(pg);
	unsigned int bad = bad_words(p, pg, salt);

	kunmap(pg);
	kmap_flush_unused();
	return bad;
}

static struct page *low_pages[3], *high_pages[3];
static struct semaphore go_high;
static volatile int high_ran, high_bad;
static void *high_addr[3];

static void high_thread(void *arg)
{
	(void)arg;
	down(&go_high);
	/* Same slot indices as the preempted thread's maps, other pages. */
	for (int i = 0; i < 3; i++) {
		high_addr[i] = kmap_local_page(high_pages[i]);
		fill(high_addr[i], high_pages[i], 0xbeef);
	}
	for (int i = 2; i >= 0; i--) {
		high_bad += bad_words(high_addr[i], high_pages[i], 0xbeef);
		kunmap_local(high_addr[i]);
	}
	high_ran = 1;
}

static void preempted_thread_keeps_its_maps(void)
{
	void *addr[3];
	struct thread *t;
	unsigned int bad = 0;

	for (int i = 0; i < 3; i++) {
		low_pages[i] = alloc_page(ZONE_HIGHMEM);
		high_pages[i] = alloc_page(ZONE_HIGHMEM);
	}
	sema_init(&go_high, 0);
	high_ran = high_bad = 0;
	t = thread_create("high", high_thread, NULL, PRIO_MAIN + 1, 0);

	for (int i = 0; i < 3; i++) {
		addr[i] = kmap_local_page(low_pages[i]);
		fill(addr[i], low_pages[i], 0xcafe);
	}
	up(&go_high);           /* preempted here: high runs and maps slots 0..2 */
	KT_ASSERT_EQ(high_ran, 1);
	for (int i = 0; i < 3; i++) {
		KT_ASSERT(addr[i] == high_addr[i]);     /* really the same slots */
		bad += bad_words(addr[i], low_pages[i], 0xcafe);
		fill(addr[i], low_pages[i], 0xf00d);    /* and still writable */
	}
	for (int i = 2; i >= 0; i--)
		kunmap_local(addr[i]);
	thread_join(t);
	KT_ASSERT_EQ(bad, 0);
	KT_ASSERT_EQ(high_bad, 0);
	for (int i = 0; i < 3; i++) {
		KT_ASSERT_EQ(bad_via_kmap(low_pages[i], 0xf00d), 0);
		KT_ASSERT_EQ(bad_via_kmap(high_pages[i], 0xbeef), 0);
	}
}

static volatile int atomic_unmapped;
static volatile int seen_unmapped;

static void checker(void *arg)
{
	(void)arg;
	down(&go_high);
	seen_unmapped = atomic_unmapped;
}

static void kmap_atomic_holds_off_higher_thread(void)
{
	struct thread *t;
	void *p;

	sema_init(&go_high, 0);
	atomic_unmapped = 0;
	seen_unmapped = -1;
	t = thread_create("checker", checker, NULL, PRIO_MAIN + 1, 0);
	p = kmap_atomic(low_pages[0]);
	up(&go_high);                           /* would preempt, but may not */
	for (volatile int i = 0; i < 100000; i++)
		;                               /* ticks arrive meanwhile */
	KT_ASSERT_EQ(seen_unmapped, -1);
	atomic_unmapped = 1;
	kunmap_atomic(p);                       /* checker runs here */
	KT_ASSERT_EQ(seen_unmapped, 1);
	thread_join(t);
}

static struct page *irq_page;
static volatile int irq_done;

static void irq_maps(unsigned int irq, void *arg)
{
	uint32_t *p;

	(void)arg;
	irq_clear_soft(irq);
	p = kmap_local_page(irq_page);
	fill(p, irq_page, 0x1234);
	kunmap_local(p);
	irq_done = 1;
}

static void irq_maps_while_thread_holds_maps(void)
{
	void *addr[2];

	irq_page = alloc_page(ZONE_HIGHMEM);
	irq_done = 0;
	for (int i = 0; i < 2; i++) {
		addr[i] = kmap_local_page(low_pages[i]);
		fill(addr[i], low_pages[i], 0x5678);
	}
	KT_ASSERT(request_irq(irq_soft_line(), irq_maps, NULL) == 0);
	irq_raise_soft(irq_soft_line());
	free_irq(irq_soft_line());
	KT_ASSERT_EQ(irq_done, 1);
	KT_ASSERT_EQ(current->kmap_ctrl.idx, 2 * KM_INCR);
	for (int i = 0; i < 2; i++)
		KT_ASSERT_EQ(bad_words(addr[i], low_pages[i], 0x5678), 0);
	for (int i = 1; i >= 0; i--)
		kunmap_local(addr[i]);
	KT_ASSERT_EQ(bad_via_kmap(irq_page, 0x1234), 0);
}

static void new_thread_starts_with_no_maps(void *arg)
{
	*(int *)arg = current->kmap_ctrl.idx;
}

static void threads_start_with_empty_kmap_ctrl(void)
{
	int idx = -1;
	void *p = kmap_local_page(low_pages[0]);
	struct thread *t = thread_create("fresh", new_thread_starts_with_no_maps, &idx,
					 PRIO_MAIN + 1, 0);

	thread_join(t);
	kunmap_local(p);
	KT_ASSERT_EQ(idx, 0);
}

/* More kmap() callers than pkmap slots: the extra ones sleep, none deadlocks. */
#define KMAP_CALLERS 24
static struct page *pool_pages[KMAP_CALLERS];
static volatile int pool_done;

static void kmap_holder(void *arg)
{
	struct page *pg = arg;
	uint32_t *p = kmap(pg);

	fill(p, pg, 0x77);
	sleep_ms(5);            /* hold the slot while the others queue up */
	kunmap(pg);
	pool_done++;
}

static void pkmap_exhaustion_sleeps_and_completes(void)
{
	struct thread *t[KMAP_CALLERS];

	pool_done = 0;
	kmap_flush_unused();
	for (int i = 0; i < KMAP_CALLERS; i++) {
		pool_pages[i] = alloc_page(ZONE_HIGHMEM);
		t[i] = thread_create("holder", kmap_holder, pool_pages[i], PRIO_MAIN + 1, 0);
	}
	for (int i = 0; i < KMAP_CALLERS; i++)
		thread_join(t[i]);
	KT_ASSERT_EQ(pool_done, KMAP_CALLERS);
	for (int i = 0; i < KMAP_CALLERS; i++)
		KT_ASSERT_EQ(bad_via_kmap(pool_pages[i], 0x77), 0);
}

KTEST_MAIN(KTEST(preempted_thread_keeps_its_maps), KTEST(kmap_atomic_holds_off_higher_thread),
	   KTEST(irq_maps_while_thread_holds_maps), KTEST(threads_start_with_empty_kmap_ctrl),
	   KTEST(pkmap_exhaustion_sleeps_and_completes))
