/*
 * Completions, as in Linux: one side waits until the other says "done".
 * Each complete() lets one wait through (counted, so a complete() before
 * the wait is not lost); complete_all() lets every present and future
 * wait through until reinit_completion().
 *
 *   struct completion done;
 *   init_completion(&done);
 *   ... thread_create(..., worker, &done, ...);   worker ends with complete(&done)
 *   if (!wait_for_completion_timeout(&done, msecs_to_jiffies(100)))
 *           printf("worker late\n");
 */
#ifndef LOKAL_COMPLETION_H
#define LOKAL_COMPLETION_H

#include <stdbool.h>
#include <lokal/wait.h>
#include <lokal/handle.h>

struct completion {
	unsigned int magic;
	unsigned int done;
	struct wait_queue wait;
};

#define COMPLETION_INITIALIZER(name) { COMPL_MAGIC, 0, WAIT_QUEUE_INIT((name).wait) }
#define DECLARE_COMPLETION(name) struct completion name = COMPLETION_INITIALIZER(name)

/* Set up x with nothing completed (DECLARE_COMPLETION does it statically). */
void init_completion(struct completion *x);
/* Forget past complete()s and complete_all(), for reuse. No thread may be waiting. */
void reinit_completion(struct completion *x);
/* Wait until a complete() is available and consume it. Threads only. */
void wait_for_completion(struct completion *x);
/*
 * The same for at most timeout ticks: returns 0 if the time ran out,
 * else the ticks that were left (at least 1). Threads only.
 */
long wait_for_completion_timeout(struct completion *x, long timeout);
/* Consume a complete() if one is available, never sleeping; callable from IRQ handlers. */
bool try_wait_for_completion(struct completion *x);
/* Whether a wait would go through now (nothing is consumed); callable anywhere. */
bool completion_done(struct completion *x);
/* Let one waiter (the longest waiting) through, now or later; callable from IRQ handlers. */
void complete(struct completion *x);
/* Let every waiter through, now and until reinit_completion(); callable from IRQ handlers. */
void complete_all(struct completion *x);

#endif
