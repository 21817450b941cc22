/* The snapshots the console shell prints (lokal/sysinfo.h): who holds which
 * local kmap slot, and the pkmap pool's counts and waiters. */
#include <string.h>
#include <lokal/app.h>
#include <lokal/thread.h>
#include <lokal/mutex.h>
#include <lokal/highmem.h>
#include <lokal/sysinfo.h>
#include "ktest.h"

#define HELD    3

static struct thread_info info[16];
static struct page *pages[HELD];
static void *addr[HELD];
static struct semaphore release;

static void holder(void *arg)
{
	(void)arg;
	for (int i = 0; i < HELD; i++)
		addr[i] = kmap_local_page(pages[i]);
	down(&release);                 /* blocked, maps held: preemptible */
	for (int i = HELD - 1; i >= 0; i--)
		kunmap_local(addr[i]);
}

static const struct thread_info *find(unsigned int n, const char *name)
{
	for (unsigned int i = 0; i < n; i++)
		if (!strcmp(info[i].name, name))
			return &info[i];
	return NULL;
}

static void snapshot_lists_held_kmaps(void)
{
	const struct thread_info *h, *m;
	struct thread *t;
	unsigned int n;

	for (int i = 0; i < HELD; i++)
		KT_ASSERT((pages[i] = alloc_page(ZONE_HIGHMEM)) != NULL);
	sema_init(&release, 0);
	t = thread_create("holder", holder, NULL, PRIO_MAIN + 1, 2048);
	KT_ASSERT(t);
	n = thread_snapshot(info, 16);
	KT_ASSERT(n >= 3 && n <= 16);
	h = find(n, "holder");
	m = find(n, "main");
	KT_ASSERT(h && m);
	KT_ASSERT(!strcmp(h->state, "blocked"));
	KT_ASSERT(!strcmp(m->state, "running"));
	KT_ASSERT_EQ(m->kmaps, 0);
	KT_ASSERT_EQ(h->kmaps, HELD);
	for (int i = 0; i < HELD; i++) {
		KT_ASSERT_EQ(h->kmap[i].slot, i * KM_INCR + KM_INCR - 1);
		KT_ASSERT_EQ(h->kmap[i].vaddr, (unsigned long)addr[i]);
		KT_ASSERT_EQ(h->kmap[i].pfn, page_to_pfn(pages[i]));
	}
	/* 2048 asked for: a stack is whole pages above its guard page */
	KT_ASSERT(h->stack_size == 4096 && h->stack_used > 0 && h->stack_used < h->stack_size);
	up(&release);
	thread_join(t);
	n = thread_snapshot(info, 16);
	KT_ASSERT(find(n, "holder") == NULL);
	for (int i = 0; i < HELD; i++)
		__free_page(pages[i]);
}

static void pkmap_counts_follow_kmap_kunmap_flush(void)
{
	struct pkmap_info a, b;
	struct page *pg[4];

	kmap_flush_unused();
	pkmap_get_info(&a);
	KT_ASSERT_EQ(a.slots, LAST_PKMAP);
	KT_ASSERT_EQ(a.in_use + a.awaiting_flush + a.free, a.slots);
	KT_ASSERT_EQ(a.awaiting_flush, 0);
	KT_ASSERT_EQ(a.waiters, 0);
	for (int i = 0; i < 4; i++) {
		KT_ASSERT((pg[i] = alloc_page(ZONE_HIGHMEM)) != NULL);
		kmap(pg[i]);
	}
	pkmap_get_info(&b);
	KT_ASSERT_EQ(b.in_use, a.in_use + 4);
	KT_ASSERT_EQ(b.free, a.free - 4);
	for (int i = 0; i < 4; i++)
		kunmap(pg[i]);
	pkmap_get_info(&b);
	KT_ASSERT_EQ(b.in_use, a.in_use);
	KT_ASSERT_EQ(b.awaiting_flush, 4);
	kmap_flush_unused();
	pkmap_get_info(&b);
	KT_ASSERT_EQ(b.free, a.free);
	KT_ASSERT_EQ(b.awaiting_flush, 0);
	for (int i = 0; i < 4; i++)
		__free_page(pg[i]);
}

static struct page *late_page;

static void late_mapper(void *arg)
{
	(void)arg;
	kmap(late_page);                /* the pool is full: sleeps */
	kunmap(late_page);
}

static void pkmap_waiter_is_counted(void)
{
	static struct page *pg[LAST_PKMAP];
	struct pkmap_info pi;
	struct thread *t;
	int n = 0, filled;

	kmap_flush_unused();
	pkmap_get_info(&pi);
	/* Fill every free slot. */
	for (unsigned int i = 0; i < pi.free; i++) {
		KT_ASSERT((pg[n] = alloc_page(ZONE_HIGHMEM)) != NULL);
		kmap(pg[n++]);
	}
	filled = n;
	KT_ASSERT((late_page = alloc_page(ZONE_HIGHMEM)) != NULL);
	t = thread_create("late", late_mapper, NULL, PRIO_MAIN + 1, 2048);
	pkmap_get_info(&pi);
	KT_ASSERT_EQ(pi.free, 0);
	KT_ASSERT_EQ(pi.waiters, 1);
	kunmap(pg[--n]);                /* frees a slot: the waiter gets it and finishes */
	thread_join(t);
	pkmap_get_info(&pi);
	KT_ASSERT_EQ(pi.waiters, 0);
	while (n)
		kunmap(pg[--n]);
	kmap_flush_unused();
	for (int i = 0; i < filled; i++)
		__free_page(pg[i]);
	__free_page(late_page);
}

KTEST_MAIN(KTEST(snapshot_lists_held_kmaps), KTEST(pkmap_counts_follow_kmap_kunmap_flush),
	   KTEST(pkmap_waiter_is_counted))
