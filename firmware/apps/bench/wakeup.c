/*
 * Figure 3: wake-up latency of a high-priority thread woken by a timer IRQ
 * while low-priority workers copy and checksum highmem pages, inside
 * kmap_atomic sections (preemption off) or inside kmap_local_page sections
 * of the same code and length (preemptible), and, as the control for the
 * cost of the maps themselves, the same local sections on lowmem pages,
 * which map nothing ("nomap": workers that hold no kmap when preempted),
 * and, where the board has a DMA memcpy engine, the same pages copied by
 * it ("dma": each worker's copy maps four pages for the device, sleeps
 * until the completion interrupt and unmaps them).
 *
 * Latency runs from the timer's programmed expiry to the moment the woken
 * thread runs, so time spent with interrupts or preemption off counts. The
 * same edges go to the trace buffer ("wake" high at expiry, low when the
 * thread runs), which the firmware dumps for tools/latency.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lokal/thread.h>
#include <lokal/mutex.h>
#include <lokal/irq.h>
#include <lokal/app.h>
#include <lokal/highmem.h>
#include <lokal/crc32c.h>
#include <lokal/trace.h>
#include <lokal/bug.h>
#include "bench.h"
#include "pages.h"
#include "stats.h"

#define NR_WORKERS      2
#define PRIO_WORKER     (PRIO_MAIN - 2)   /* below main, so main can start them all */
#define PRIO_WAKER      (PRIO_MAIN + 2)

static uint32_t *latency;               /* counter ticks, one per wake-up */
static unsigned int nr_wakes, wakes_wanted;
static struct semaphore wake_sem;
static volatile uint32_t expiry;        /* counter value of the armed expiry */
static volatile bool workers_stop;
static bool use_atomic, use_dma;
static struct page *lowmem_pages[2][BENCH_PAGES];     /* the nomap workers' pages */
static uint32_t rng = 12345;
static volatile uint32_t section_crc;
volatile bool bench_stop;

static uint32_t next_delay_us(void)
{
	rng = rng * 1103515245u + 12345u;
	return 150 + (rng >> 16) % 200;         /* 150..349 us */
}

static void arm_timer(void)
{
	uint32_t us = next_delay_us();

	expiry = clock_read() + us * (clock_hz() / 1000000u);
	oneshot_timer_arm(us);
}

static void timer_irq(unsigned int irq, void *arg)
{
	(void)irq; (void)arg;
	oneshot_timer_ack();
	wake_marker_set(1);
	trace_record_at(TRACE_WAKE, 1, expiry);
	up(&wake_sem);
}

static void waker(void *arg)
{
	(void)arg;
	while (nr_wakes < wakes_wanted && !bench_stop) {
		arm_timer();
		down(&wake_sem);
		uint32_t now = clock_read();

		wake_marker_set(0);
		trace_record_at(TRACE_WAKE, 0, now);
		latency[nr_wakes++] = now - expiry;
	}
	workers_stop = true;
}

/* One section: copy a page to another and checksum the copy, mapped. */
static void section(struct page *src, struct page *dst)
{
	void *s, *d;

	if (use_atomic) {
		s = kmap_atomic(src);
		d = kmap_atomic(dst);
	} else {
		s = kmap_local_page(src);
		d = kmap_local_page(dst);
	}
	memcpy(d, s, PAGE_SIZE);
	section_crc ^= crc32c(0, d, PAGE_SIZE);
	if (use_atomic) {
		kunmap_atomic(d);
		kunmap_atomic(s);
	} else {
		kunmap_local(d);
		kunmap_local(s);
	}
}

static void worker(void *arg)
{
	int set = (int)(intptr_t)arg;
	struct page **pages = set < 0 ? lowmem_pages[-set - 1] : bench_pages(set);
	unsigned int i = 0;

	while (!workers_stop) {
		if (use_dma)
			BUG_ON(bench_dma_copy(&pages[(i + 4) % 8], &pages[i % 8], 4) != 0);
		else
			section(pages[i % BENCH_PAGES], pages[(i + 1) % BENCH_PAGES]);
		i++;
	}
}

/* Length of one section, measured alone (so both modes can be compared). */
static uint64_t section_ns_x100(void)
{
	struct page **p = bench_pages(0);
	uint32_t t = clock_read();

	for (int i = 0; i < 20; i++)
		section(p[0], p[1]);
	return per_iter_x100(clock_read() - t, 20);
}

/*
 * One mode's wake-ups; the line it prints after them names the mode and
 * says how many there were, so a capture of the pins made over the whole
 * run can be cut into the modes (lokal-latency wakeup).
 */
static void run_mode(const char *mode, bool atomic, bool nomap, bool dma, unsigned int wakes,
		     struct latency_stats *st)
{
	struct thread *w[NR_WORKERS], *h;
	char name[16];

	use_atomic = atomic;
	use_dma = dma;
	nr_wakes = 0;
	wakes_wanted = wakes;
	workers_stop = false;
	sema_init(&wake_sem, 0);
	for (int i = 0; i < NR_WORKERS; i++) {
		snprintf(name, sizeof(name), "worker%d", i);
		w[i] = thread_create(name, worker, (void *)(intptr_t)(nomap ? -(i + 1) : i + 2),
				     PRIO_WORKER, 2048);
	}
	trace_start();
	h = thread_create("waker", waker, NULL, PRIO_WAKER, 2048);
	thread_join(h);
	trace_stop();
	for (int i = 0; i < NR_WORKERS; i++)
		thread_join(w[i]);
	latency_stats(latency, nr_wakes, st);
	printf("  wakeup run %s: %u wake-ups\n", mode, nr_wakes);
}

void bench_wakeup(unsigned int wakes, bool dump)
{
	struct latency_stats atomic, local, nomap, dma;
	bool have_dma;
	char name[48];

	latency = malloc(wakes * sizeof(*latency));
	if (!latency) {
		printf("bench: no memory for %u samples\n", wakes);
		return;
	}
	request_irq(oneshot_timer_irq(), timer_irq, NULL);

	use_atomic = true;
	bench_result("wakeup", "section length (atomic)", section_ns_x100());
	use_atomic = false;
	bench_result("wakeup", "section length (local)", section_ns_x100());

	for (int i = 0; i < 2; i++)
		for (int j = 0; j < BENCH_PAGES; j++)
			if (!(lowmem_pages[i][j] = alloc_page(ZONE_LOWMEM))) {
				printf("bench: no lowmem pages for the nomap run\n");
				free(latency);
				return;
			}
	run_mode("atomic", true, false, false, wakes, &atomic);
	if (dump)
		trace_dump_vcd("kmap_atomic");
	if (!bench_stop)
		run_mode("local", false, false, false, wakes, &local);
	if (dump)
		trace_dump_vcd("kmap_local");
	/* Before nomap, whose trace stays in the buffer for a board's dump. */
	have_dma = !bench_stop && bench_dma_ready();
	if (have_dma)
		run_mode("dma", false, false, true, wakes, &dma);
	if (!bench_stop)
		run_mode("nomap", false, true, false, wakes, &nomap);
	free_irq(oneshot_timer_irq());
	for (int i = 0; i < 2; i++)
		for (int j = 0; j < BENCH_PAGES; j++)
			__free_page(lowmem_pages[i][j]);
	if (bench_stop) {
		printf("  stopped after %u wake-ups\n", nr_wakes);
		free(latency);
		return;
	}

	for (int m = 0; m < (have_dma ? 4 : 3); m++) {
		struct latency_stats *s = m == 3 ? &dma : m == 2 ? &nomap : m ? &local : &atomic;
		const char *mode = m == 3 ? "dma" : m == 2 ? "nomap" : m ? "local" : "atomic";

		snprintf(name, sizeof(name), "%s min", mode);
		bench_result("wakeup", name, ticks_to_ns(s->min) * 100);
		snprintf(name, sizeof(name), "%s median", mode);
		bench_result("wakeup", name, ticks_to_ns(s->median) * 100);
		snprintf(name, sizeof(name), "%s p99", mode);
		bench_result("wakeup", name, ticks_to_ns(s->p99) * 100);
		snprintf(name, sizeof(name), "%s max", mode);
		bench_result("wakeup", name, ticks_to_ns(s->max) * 100);
	}
	printf("  wake-ups per mode: %u\n", wakes);
	/* Reported as atomic/local: "local p99 is 1/N of atomic p99". */
	bench_result_unit("wakeup", "p99 atomic/local", (uint64_t)atomic.p99 * 100 / (local.p99 ? local.p99 : 1), "x");
	/* What holding two maps adds to a preempted worker's wake-up cost. */
	bench_result_unit("wakeup", "p99 local/nomap", (uint64_t)local.p99 * 100 / (nomap.p99 ? nomap.p99 : 1), "x");
	/* What DMA copies cost a wake-up, against the CPU copying the same pages. */
	if (have_dma)
		bench_result_unit("wakeup", "p99 dma/local", (uint64_t)dma.p99 * 100 / (local.p99 ? local.p99 : 1), "x");
	free(latency);
}
