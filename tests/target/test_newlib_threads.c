/*
 * newlib shared by preempted threads: four threads of one priority, which
 * the tick preempts round-robin, allocate, fill, check and free blocks of
 * random sizes, print lines through stdout and create and join threads of
 * their own (thread_create() and thread_join() use the heap too). Without
 * a heap lock newlib's free lists break within a few hundred ticks (a
 * data abort in _malloc_r or _free_r, or a block handed out twice, which
 * the fill pattern shows). Every block's pattern is checked before it is
 * freed.
 *
 * stdout points at a memory stream for the run, so the test can read back
 * what the threads printed: without a stdio lock two threads inside one
 * vfprintf() share the stream's buffer pointers, and lines come out torn,
 * merged or lost (on the console that is only garbled text nobody checks).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lokal/thread.h>
#include <lokal/app.h>
#include "ktest.h"

#define WORKERS         4
#define LIVE            16      /* blocks each worker holds at once */
#define RUN_TICKS       200     /* HZ=1000: 0.2 s of preemption, some 25000 blocks */

struct worker {
	uint32_t rng;
	unsigned long allocs, bad, prints, joins;
	unsigned char *blk[LIVE];
	size_t len[LIVE];
};

static struct worker w[WORKERS];
static volatile uint64_t stop_at;

static uint32_t rnd(struct worker *me)
{
	me->rng ^= me->rng << 13;
	me->rng ^= me->rng >> 17;
	me->rng ^= me->rng << 5;
	return me->rng;
}

static unsigned char pattern(const struct worker *me, int slot, size_t i)
{
	return (unsigned char)((me - w) * 61 + slot * 7 + i);
}

static void check_and_free(struct worker *me, int slot)
{
	unsigned char *p = me->blk[slot];

	if (!p)
		return;
	for (size_t i = 0; i < me->len[slot]; i++)
		if (p[i] != pattern(me, slot, i)) {
			me->bad++;
			break;
		}
	free(p);
	me->blk[slot] = NULL;
}

static void child(void *arg)
{
	(void)arg;
}

static void work(void *arg)
{
	struct worker *me = arg;

	while (jiffies_read() < stop_at) {
		int slot = (int)(rnd(me) % LIVE);
		size_t len = 1 + rnd(me) % 600;

		check_and_free(me, slot);
		me->blk[slot] = malloc(len);
		if (!me->blk[slot]) {
			me->bad++;
			continue;
		}
		me->len[slot] = len;
		for (size_t i = 0; i < len; i++)
			me->blk[slot][i] = pattern(me, slot, i);
		me->allocs++;
		if ((me->allocs & 15) == 0) {
			printf("# worker %d: %lu blocks, %lu bad\n", (int)(me - w), me->allocs, me->bad);
			me->prints++;
		}
		if ((me->allocs & 255) == 0) {
			struct thread *t = thread_create("child", child, NULL, PRIO_MAIN - 1, 0);

			if (!t || thread_join(t) != 0)
				me->bad++;
			else
				me->joins++;
		}
	}
	for (int slot = 0; slot < LIVE; slot++)
		check_and_free(me, slot);
}

/* How many lines text holds, each exactly as a worker formats it; -1 at the first that is not. */
static long lines_intact(const char *text, size_t len)
{
	long lines = 0;

	for (const char *p = text, *end = text + len; p < end; lines++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		char again[64];
		unsigned long n, bad;
		int id;

		if (!nl || sscanf(p, "# worker %d: %lu blocks, %lu bad", &id, &n, &bad) != 3 ||
		    snprintf(again, sizeof(again), "# worker %d: %lu blocks, %lu bad\n", id, n, bad) !=
		    nl + 1 - p || memcmp(again, p, (size_t)(nl + 1 - p)) != 0) {
			printf("# line %ld torn: '%.*s'\n", lines + 1, nl ? (int)(nl - p) : (int)(end - p), p);
			return -1;
		}
		p = nl + 1;
	}
	return lines;
}

static void four_threads_share_the_heap_and_stdout(void)
{
	struct thread *t[WORKERS];
	int status[WORKERS];
	unsigned long allocs = 0, prints = 0;
	FILE *console = stdout;
	char *text = NULL;
	size_t text_len = 0;
	FILE *mem = open_memstream(&text, &text_len);
	long lines;

	KT_ASSERT(mem != NULL);
	stdout = mem;
	stop_at = jiffies_read() + RUN_TICKS;
	for (int i = 0; i < WORKERS; i++) {
		w[i].rng = 0x9e3779b9u * (uint32_t)(i + 1);
		t[i] = thread_create("worker", work, &w[i], PRIO_MAIN - 1, 0);
	}
	for (int i = 0; i < WORKERS; i++)
		status[i] = t[i] ? thread_join(t[i]) : -1;
	fflush(mem);
	stdout = console;               /* before any assertion can report */
	fclose(mem);
	lines = lines_intact(text, text_len);
	free(text);

	for (int i = 0; i < WORKERS; i++) {
		KT_ASSERT(t[i] != NULL);
		KT_ASSERT_EQ(status[i], 0);
		KT_ASSERT_EQ(w[i].bad, 0);
		KT_ASSERT(w[i].joins > 0);
		allocs += w[i].allocs;
		prints += w[i].prints;
	}
	printf("# %lu blocks and %lu lines from %d preempted threads\n", allocs, prints, WORKERS);
	KT_ASSERT(allocs > 4000);
	KT_ASSERT_EQ(lines, prints);
}

KTEST_MAIN(KTEST(four_threads_share_the_heap_and_stdout))
