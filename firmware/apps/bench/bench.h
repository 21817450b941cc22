/*
 * Benchmark harness. Under QEMU with -icount shift=0 one guest instruction
 * takes one virtual nanosecond, and the 24 MHz counter follows virtual
 * time, so every figure is an exact, repeatable count. The counter's
 * resolution is 1/24 MHz = 41.67 ns: costs of short operations are taken
 * over many iterations.
 */
#ifndef BENCH_H
#define BENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <lokal/platform.h>

/* Nanoseconds (= guest instructions under icount) in a counter interval. */
static inline uint64_t ticks_to_ns(uint32_t ticks)
{
	return (uint64_t)ticks * 1000000000ull / clock_hz();
}

/* Per-iteration cost in ns, with 1/100 ns kept (fixed point x100). */
static inline uint64_t per_iter_x100(uint32_t ticks, uint32_t iters)
{
	return ticks_to_ns(ticks) * 100 / iters;
}

/* One figure: group, name, value x100 and its unit ("ns" or "x" for ratios). */
void bench_result_unit(const char *group, const char *name, uint64_t x100, const char *unit);
static inline void bench_result(const char *group, const char *name, uint64_t ns_x100)
{
	bench_result_unit(group, name, ns_x100, "ns");
}
/* Print the table and the JSON block. */
void bench_report(void);

void bench_switch(void);
void bench_kmap(void);
void bench_wakeup(unsigned int wakes, bool dump);
/* The eight standard RTOS event shapes, in events per second (events.c). */
void bench_events(void);
/* Streaming DMA: maintenance per page and direction, PL080 copies (dma.c). */
void bench_dma(void);
/* True once the board's DMA memcpy engine is ready (false: the board has none). */
bool bench_dma_ready(void);
/* Copy pages src[0..n-1] to dst[0..n-1] (n <= 16) with it; 0 or -errno. */
struct page;
int bench_dma_copy(struct page **dst, struct page **src, int n);
/* Set (e.g. by the console shell's Ctrl-C) to end bench_wakeup() early. */
extern volatile bool bench_stop;

#endif
