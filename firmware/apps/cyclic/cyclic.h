/*
 * cyclic: Lokal's cyclictest. A one-shot timer is armed for a known
 * expiry, period after period; its handler notes how late it ran and
 * wakes the measuring thread (the highest priority there is), which notes
 * how late it ran in turn. Both delays go into a histogram, beside a
 * background load whose parts are switched on one by one.
 */
#ifndef CYCLIC_H
#define CYCLIC_H

#include <stdbool.h>
#include <stdint.h>
#include <generated/config.h>

/* The load's parts (CYCLIC_LOAD is a mask of them). */
enum cyclic_load_part {
	LOAD_LOCAL,     /* threads holding and nesting local maps */
	LOAD_PKMAP,     /* kmap() over more pages than the pool has slots: recycling */
	LOAD_GET,       /* kmap_local_page() of a kmap()ed page: kmap_high_get() */
	LOAD_DMA,       /* memory-to-memory DMA with the board's engine */
	LOAD_CONSOLE,   /* a thread draining console input (fed by the runner) */
	LOAD_SERVICES,  /* queue, pool, event-flag and timer traffic */
	LOAD_MUTEX,     /* a low-priority thread holds the mutex the measurer takes */
	NR_LOAD_PARTS
};
#define LOAD_ALL_DEFAULT ((1u << LOAD_MUTEX) - 1)       /* every part but the mutex */

/* A part's name, as CYCLIC_LOAD's documentation and the load report give it. */
const char *cyclic_load_name(unsigned int part);

/*
 * Histogram buckets: one counter tick each (what the firmware can tell
 * apart), the last one open-ended; min, avg and max are kept exactly.
 */
#define HIST_BUCKETS    96u

struct cyclic_hist {
	uint32_t bucket[HIST_BUCKETS];
	uint32_t min, max;              /* counter ticks */
	uint64_t sum;                   /* counter ticks */
	uint32_t count;
};

struct cyclic_result {
	struct cyclic_hist handler, thread;
	struct cyclic_hist wake;        /* handler to thread: the wake pin's pulse */
	uint32_t calib_ticks;           /* one counter read, subtracted from each sample */
};

/* What a run may ask for: config.table's ranges of CYCLIC_PERIODS and CYCLIC_PERIOD_US. */
#define CYCLIC_PERIODS_MAX      CONFIG_CYCLIC_PERIODS_MAX
#define CYCLIC_PERIOD_US_MIN    CONFIG_CYCLIC_PERIOD_US_MIN
#define CYCLIC_PERIOD_US_MAX    CONFIG_CYCLIC_PERIOD_US_MAX

struct cyclic_params {
	unsigned int periods;
	unsigned int period_us;
	unsigned int load;              /* mask of 1 << enum cyclic_load_part */
};

/*
 * Measure p->periods periods beside the load; false when the run could not
 * start. Setting cyclic_stop ends it early (the shell's Ctrl-C): the
 * result then holds the periods measured so far.
 */
bool cyclic_run(const struct cyclic_params *p, struct cyclic_result *r);
extern volatile bool cyclic_stop;
/* The run's first line: periods, period, kmap scheme, tick, load parts. */
void cyclic_print_params(const struct cyclic_params *p);

/* Start and stop the load's threads (load.c); cyclic_load_report() prints what each part did. */
bool cyclic_load_start(unsigned int mask);
void cyclic_load_stop(void);
void cyclic_load_report(void);
/* LOAD_MUTEX: the mutex the measuring thread takes after each wake-up. */
struct mutex *cyclic_load_mutex(void);

void cyclic_hist_add(struct cyclic_hist *h, uint32_t ticks);
void cyclic_hist_print(const struct cyclic_result *r);

#endif
