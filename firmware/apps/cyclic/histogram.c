/*
 * The histogram and its report, laid out as cyclictest users read one:
 * a row per bucket that holds a sample, then min, avg and max.
 */
#include <stdio.h>
#include <lokal/platform.h>
#include <generated/config.h>
#include "cyclic.h"

void cyclic_print_params(const struct cyclic_params *p)
{
	printf("cyclic: %u periods of %u us (armed %u..%u us ahead), KMAP_DEFER=%d, HZ=%d, load:",
	       p->periods, p->period_us, p->period_us, p->period_us + p->period_us / 2,
	       CONFIG_KMAP_DEFER, CONFIG_HZ);
	for (unsigned int i = 0; i < NR_LOAD_PARTS; i++)
		if (p->load & 1u << i)
			printf(" %s", cyclic_load_name(i));
	printf("%s\n", p->load ? "" : " none");
}

void cyclic_hist_add(struct cyclic_hist *h, uint32_t ticks)
{
	h->bucket[ticks < HIST_BUCKETS ? ticks : HIST_BUCKETS - 1]++;
	if (ticks < h->min)
		h->min = ticks;
	if (ticks > h->max)
		h->max = ticks;
	h->sum += ticks;
	h->count++;
}

/* Counter ticks as ns, rounded down (as tools/latency reads a trace). */
static unsigned long ns(uint64_t ticks)
{
	return (unsigned long)(ticks * 1000000000u / clock_hz());
}

static void print_summary(const char *name, const struct cyclic_hist *h)
{
	printf("cyclic: %-8s min %6lu avg %6lu max %6lu ns over %lu periods\n", name,
	       h->count ? ns(h->min) : 0, h->count ? ns(h->sum) / h->count : 0,
	       ns(h->max), (unsigned long)h->count);
}

void cyclic_hist_print(const struct cyclic_result *r)
{
	printf("cyclic: counter %lu Hz; one counter read, %lu ns, is subtracted from each sample\n",
	       (unsigned long)clock_hz(), ns(r->calib_ticks));
	printf("cyclic: histogram: a bucket per counter tick, %lu.%02lu ns; the last is every "
	       "sample from %lu ns on\n", ns(100) / 100, ns(100) % 100, ns(HIST_BUCKETS - 1));
	printf("cyclic-hist: %8s %10s %10s\n", "ns", "handler", "thread");
	for (unsigned int b = 0; b < HIST_BUCKETS; b++)
		if (r->handler.bucket[b] || r->thread.bucket[b])
			printf("cyclic-hist: %8lu %10lu %10lu\n", ns(b),
			       (unsigned long)r->handler.bucket[b], (unsigned long)r->thread.bucket[b]);
	print_summary("handler", &r->handler);
	print_summary("thread", &r->thread);
	/* What a logic analyzer on the wake pin alone sees (no timer pin). */
	print_summary("wake", &r->wake);
}
