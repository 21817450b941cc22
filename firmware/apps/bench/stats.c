/* Nearest-rank percentiles: the value at rank ceil(p/100 * n), 1-based. */
#include <stdlib.h>
#include "stats.h"

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static uint32_t rank(const uint32_t *s, unsigned int n, unsigned int pct)
{
	unsigned int r = (unsigned int)(((uint64_t)pct * n + 99) / 100);

	return s[(r ? r : 1) - 1];
}

void latency_stats(uint32_t *samples, unsigned int n, struct latency_stats *st)
{
	if (n == 0) {
		*st = (struct latency_stats){ 0 };
		return;
	}
	qsort(samples, n, sizeof(*samples), cmp_u32);
	st->min = samples[0];
	st->median = rank(samples, n, 50);
	st->p90 = rank(samples, n, 90);
	st->p99 = rank(samples, n, 99);
	st->max = samples[n - 1];
}
