/*
 * The image vivt-emu --sweep lands its IRQs in for newlib's heap
 * (tests/vivt/sweep.sh): main frees and allocates blocks, and the software
 * IRQ handler, landed anywhere in one of those calls, wakes 'taker', which
 * outranks main and allocates, fills and frees blocks of its own from the
 * same free lists. With the heap's lock, taker waits for main's call to
 * finish (and lends it its priority); without it, taker's calls run in the
 * middle of main's and the free lists break: two blocks overlap (the fill
 * patterns show it) or newlib faults. Every block is checked at the end.
 * Run without a sweep, the handler never runs: the checks hold as well.
 */
#include <stdlib.h>
#include <string.h>
#include <lokal/thread.h>
#include <lokal/mutex.h>
#include <lokal/irq.h>
#include <lokal/app.h>
#include "ktest.h"

#define MAIN_BLOCKS     8
#define TAKER_BLOCKS    4

struct block {
	unsigned char *p;
	size_t len;
	unsigned char fill;
};

static struct block mine[MAIN_BLOCKS], taken[TAKER_BLOCKS];
static struct semaphore taker_go;
static volatile unsigned int irq_runs, taker_runs, taker_bad;
static volatile int taker_stop;

static bool get(struct block *b, size_t len, unsigned char fill)
{
	b->p = malloc(len);
	b->len = len;
	b->fill = fill;
	if (b->p)
		memset(b->p, fill, len);
	return b->p != NULL;
}

/* Bytes of b that are not its fill; the block is freed. */
static unsigned int put(struct block *b)
{
	unsigned int bad = 0;

	if (!b->p)
		return 0;
	for (size_t i = 0; i < b->len; i++)
		bad += b->p[i] != b->fill;
	free(b->p);
	b->p = NULL;
	return bad;
}

static void irq_wakes_taker(unsigned int irq, void *arg)
{
	(void)arg;
	irq_clear_soft(irq);
	irq_runs++;
	up(&taker_go);          /* it outranks main: a switch as soon as one may happen */
}

/* Woken by the handler: its own blocks, sized like main's, from the same lists. */
static void taker(void *arg)
{
	(void)arg;
	for (;;) {
		down(&taker_go);
		if (taker_stop)
			return;
		taker_runs++;
		for (int i = 0; i < TAKER_BLOCKS; i++) {
			taker_bad += put(&taken[i]);
			if (!get(&taken[i], 24 + 40 * i, (unsigned char)(0xd0 + i)))
				taker_bad++;
		}
		taker_bad += put(&taken[1]) + put(&taken[3]);   /* two holes, two kept */
	}
}

static void irq_in_heap_calls(void)
{
	struct thread *t;
	unsigned int bad = 0, fails = 0;

	sema_init(&taker_go, 0);
	t = thread_create("taker", taker, NULL, PRIO_MAIN + 1, 0);    /* runs to its down() */
	KT_ASSERT(t != NULL);
	KT_ASSERT(request_irq(irq_soft_line(), irq_wakes_taker, NULL) == 0);
	for (int i = 0; i < MAIN_BLOCKS; i++)
		fails += !get(&mine[i], 16 + 48 * i, (unsigned char)(0x10 + i));
	/* Holes between live blocks: the frees merge and bin them, the mallocs split them. */
	for (int i = 1; i < MAIN_BLOCKS; i += 2)
		bad += put(&mine[i]);
	for (int i = 1; i < MAIN_BLOCKS; i += 2)
		fails += !get(&mine[i], 40 + 24 * i, (unsigned char)(0x20 + i));
	for (int i = 0; i < MAIN_BLOCKS; i++)
		bad += put(&mine[i]);
	taker_stop = 1;
	up(&taker_go);
	thread_join(t);
	free_irq(irq_soft_line());
	for (int i = 0; i < TAKER_BLOCKS; i++)
		taker_bad += put(&taken[i]);
	KT_ASSERT_EQ(fails, 0);
	KT_ASSERT_EQ(bad, 0);
	KT_ASSERT_EQ(taker_bad, 0);
	KT_ASSERT_EQ(taker_runs, irq_runs);
}

KTEST_MAIN(KTEST(irq_in_heap_calls))
