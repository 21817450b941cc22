/* The demo (`make run`), as a part another application can run (the shell's `demo`). */
#ifndef DEMO_H
#define DEMO_H

#include <lokal/thread.h>

/*
 * Run the whole demo in the calling thread: fill highmem, the worker
 * threads, the DMA phase. Returns 0 when every byte read back as written.
 * It keeps the highmem pages it filled, so it runs once per boot.
 */
int demo_run(void);
/*
 * The counters its switch figures are relative to: zero (since boot, as
 * a logic analyzer counts them) unless the caller stores the counters it
 * finds before the run here, so that the demo reports that run alone.
 */
extern struct sched_stats demo_stats_base;

#endif
