/* Heap exhaustion: malloc() returns NULL after a clear message, nothing crashes. */
#include <stdio.h>
#include <stdlib.h>
#include <lokal/thread.h>
#include "ktest.h"

static void noop(void *arg)
{
	(void)arg;
}

static void malloc_fails_cleanly_when_the_heap_is_gone(void)
{
	unsigned long total = 0;
	void *p, *last = NULL;

	while ((p = malloc(64 * 1024)) != NULL) {
		*(void **)p = last;             /* keep them, and touch each */
		last = p;
		total += 64 * 1024;
		KT_ASSERT(total < 64ul << 20);  /* the heap is 4 MiB: it must run out */
	}
	printf("# allocated %lu KiB before malloc returned NULL\n", total / 1024);
	KT_ASSERT(total >= 2ul << 20);
	while (last) {
		p = *(void **)last;
		free(last);
		last = p;
	}
	/* And the system goes on: a thread still starts. */
	KT_ASSERT(thread_join(thread_create("after", noop, NULL, 20, 0)) == 0);
}

KTEST_MAIN(KTEST(malloc_fails_cleanly_when_the_heap_is_gone))
