/*
 * The image vivt-emu --sweep lands its IRQs in (tests/vivt/sweep.sh): one
 * switch-in that has real work to do, and a software-IRQ handler that
 * interferes with it.
 *
 * 'next' maps pages X0 and X1 (slots 0 and 1) and blocks; main maps Y and
 * P into the same slots, fills P (dirty lines) and wakes 'next', which
 * preempts it: next's switch-in finds both slots holding main's pages and
 * walks them. The handler, landed anywhere in that walk (or anywhere the
 * sweep names), maps P, the page main holds, switched out: it must read
 * main's data and its own write must survive main's lines; then it wakes
 * 'waker', which outranks both and maps P too once the walk is over.
 * Where P is not filled yet, or the interrupted thread holds P itself (a
 * handler may not alias the page of the thread it interrupted: DEBUG_HIGHMEM
 * panics), the handler maps and writes Q instead; it wakes 'waker' either
 * way, so a switch follows as soon as the interrupted code allows one.
 * Every page is checked at the end through its slot and through kmap().
 * Run without a sweep, the handler never runs: the checks hold as well.
 */
#include <lokal/highmem.h>
#include <lokal/thread.h>
#include <lokal/mutex.h>
#include <lokal/irq.h>
#include <lokal/app.h>
#include "ktest.h"

#define LAST (PAGE_SIZE / 4 - 1)	/* the handler's word of P */

static struct page *x_pages[2], *y_page, *p_page, *q_page;
static struct semaphore next_go, waker_go;
static volatile unsigned int irq_runs, p_writes, irq_bad, waker_bad, waker_runs, next_bad;
static volatile int waker_stop, p_filled;

static uint32_t tag(struct page *pg, uint32_t salt)
{
	return (uint32_t)page_to_pfn(pg) * 0x01000193u ^ salt;
}

/*
 * Read, then write: the ARM926 allocates lines on read misses only, so
 * this leaves the page's lines dirty in the D-cache under p's address.
 */
static void fill(uint32_t *p, struct page *pg, uint32_t salt)
{
	uint32_t sum = 0;

	for (unsigned int w = 0; w < PAGE_SIZE / 4; w++)
		sum += ((volatile uint32_t *)p)[w];
	__asm__ volatile("" : : "r"(sum));
	for (unsigned int w = 0; w < PAGE_SIZE / 4; w++)
		p[w] = tag(pg, salt) + w;
}

/* Words of P other than the handler's that differ from main's fill. */
static unsigned int bad_words(const uint32_t *p, struct page *pg, uint32_t salt, unsigned int n)
{
	unsigned int bad = 0;

	for (unsigned int w = 0; w < n; w++)
		bad += p[w] != tag(pg, salt) + w;
	return bad;
}

/* The handler's word: main's fill until it has run, then its count. */
static uint32_t last_word(void)
{
	return p_writes ? 0x5eed0000u + p_writes : tag(p_page, 0xa11a5) + LAST;
}

/* True if the running thread has P in one of its local maps. */
static bool current_holds_p(void)
{
	for (int i = 0; i < current->kmap_ctrl.idx; i++)
		if (current->kmap_ctrl.pteval[i] >> PAGE_SHIFT == page_to_pfn(p_page))
			return true;
	return false;
}

static void irq_maps_p(unsigned int irq, void *arg)
{
	uint32_t *p;

	(void)arg;
	irq_clear_soft(irq);
	irq_runs++;
	if (!p_filled || current_holds_p()) {
		p = kmap_local_page(q_page);
		fill(p, q_page, irq);
	} else {
		p = kmap_local_page(p_page);
		irq_bad += bad_words(p, p_page, 0xa11a5, LAST);
		p_writes++;
		p[LAST] = 0x5eed0000u + p_writes;
	}
	kunmap_local(p);
	up(&waker_go);		/* it outranks whatever ran: a switch as soon as one may happen */
}

/* Woken by the handler: maps P as a thread, while main still holds it. */
static void waker(void *arg)
{
	(void)arg;
	for (;;) {
		uint32_t *p;

		down(&waker_go);
		if (waker_stop)
			return;
		waker_runs++;
		if (!p_filled)
			continue;
		p = kmap_local_page(p_page);
		waker_bad += bad_words(p, p_page, 0xa11a5, LAST) + (p[LAST] != last_word());
		kunmap_local(p);
	}
}

static void next_thread(void *arg)
{
	uint32_t *x[2];

	(void)arg;
	for (int i = 0; i < 2; i++) {
		x[i] = kmap_local_page(x_pages[i]);
		fill(x[i], x_pages[i], 0x0e);
	}
	down(&next_go);		/* main takes slots 0 and 1; its up() switches back in here */
	for (int i = 0; i < 2; i++)
		next_bad += bad_words(x[i], x_pages[i], 0x0e, PAGE_SIZE / 4);
	for (int i = 1; i >= 0; i--)
		kunmap_local(x[i]);
}

static unsigned int bad_via_kmap(struct page *pg, uint32_t salt, bool p)
{
	uint32_t *v = kmap(pg);
	unsigned int bad = bad_words(v, pg, salt, p ? LAST : PAGE_SIZE / 4) + (p && v[LAST] != last_word());

	kunmap(pg);
	kmap_flush_unused();
	return bad;
}

static void irq_in_switch_in_walk(void)
{
	struct thread *n, *w;
	uint32_t *y, *p, p_last;
	unsigned int y_bad, p_bad;

	for (int i = 0; i < 2; i++)
		x_pages[i] = alloc_page(ZONE_HIGHMEM);
	y_page = alloc_page(ZONE_HIGHMEM);
	p_page = alloc_page(ZONE_HIGHMEM);
	q_page = alloc_page(ZONE_HIGHMEM);
	sema_init(&next_go, 0);
	sema_init(&waker_go, 0);
	KT_ASSERT(request_irq(irq_soft_line(), irq_maps_p, NULL) == 0);
	w = thread_create("waker", waker, NULL, PRIO_MAIN + 2, 0);
	n = thread_create("next", next_thread, NULL, PRIO_MAIN + 1, 0);	/* runs to its down() */
	y = kmap_local_page(y_page);
	p = kmap_local_page(p_page);
	fill(y, y_page, 0x77);
	fill(p, p_page, 0xa11a5);
	__asm__ volatile("" : : : "memory");	/* the fill before the flag */
	p_filled = 1;
	up(&next_go);		/* next preempts: its switch-in walks slots 0 and 1 */
	thread_join(n);
	y_bad = bad_words(y, y_page, 0x77, PAGE_SIZE / 4);
	p_bad = bad_words(p, p_page, 0xa11a5, LAST);
	p_last = p[LAST];
	kunmap_local(p);
	kunmap_local(y);
	waker_stop = 1;
	up(&waker_go);
	thread_join(w);
	free_irq(irq_soft_line());
	/* What the handler saw first: a stale read there is the cause of the rest. */
	KT_ASSERT_EQ(irq_bad, 0);
	KT_ASSERT_EQ(waker_bad, 0);
	KT_ASSERT_EQ(next_bad, 0);
	KT_ASSERT_EQ(y_bad, 0);
	KT_ASSERT_EQ(p_bad, 0);
	KT_ASSERT_EQ(p_last, last_word());
	KT_ASSERT_EQ(waker_runs, irq_runs);
	for (int i = 0; i < 2; i++)
		KT_ASSERT_EQ(bad_via_kmap(x_pages[i], 0x0e, false), 0);
	KT_ASSERT_EQ(bad_via_kmap(y_page, 0x77, false), 0);
	KT_ASSERT_EQ(bad_via_kmap(p_page, 0xa11a5, true), 0);
}

KTEST_MAIN(KTEST(irq_in_switch_in_walk))
