/* Latency statistics, nearest-rank percentiles (as tools/latency computes them). */
#ifndef BENCH_STATS_H
#define BENCH_STATS_H

#include <stdint.h>

struct latency_stats {
	uint32_t min, median, p90, p99, max;    /* counter ticks */
};

/* Sorts samples in place. */
void latency_stats(uint32_t *samples, unsigned int n, struct latency_stats *st);

#endif
