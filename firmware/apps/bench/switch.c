/*
 * Figure 1 and 4: context-switch cost with 0..16 local maps held by the
 * outgoing and by the incoming thread, via yield and via IRQ preemption,
 * against a floor that only saves and restores registers.
 */
#include <stdio.h>
#include <lokal/thread.h>
#include <lokal/mutex.h>
#include <lokal/irq.h>
#include <lokal/app.h>
#include <lokal/preempt.h>
#include <lokal/highmem.h>
#include <lokal/measure.h>
#include "bench.h"
#include "pages.h"

#define SWITCH_ITERS    4000
#define FLOOR_ITERS     20000
#define PRIO_BENCH      (PRIO_MAIN + 4)

static const int map_counts[] = { 0, 1, 2, 4, 8, 16 };
#define NR_COUNTS ((int)(sizeof(map_counts) / sizeof(map_counts[0])))

/* ---- floor: two raw contexts bouncing through the register switch ---- */

static uint64_t measure_floor(void)
{
	unsigned long flags = local_irq_save();
	uint32_t t = measure_register_switch(FLOOR_ITERS);

	local_irq_restore(flags);
	return per_iter_x100(t, 2 * FLOOR_ITERS);
}

/* ---- yield ping-pong between two threads holding maps ---- */

struct pingpong {
	int maps;
	int iters;
	volatile uint32_t t0, t1;
	struct page **pages;
};

static void yielder(void *arg)
{
	struct pingpong *pp = arg;
	void *addr[KM_MAX_IDX];

	map_pages(pp->pages, pp->maps, addr);
	thread_yield();                 /* both threads mapped before timing */
	if (!pp->t0)
		pp->t0 = clock_read();
	for (int i = 0; i < pp->iters; i++)
		thread_yield();
	pp->t1 = clock_read();
	unmap_pages(pp->maps, addr);
}

static uint64_t measure_yield(int maps_a, int maps_b)
{
	struct pingpong a = { maps_a, SWITCH_ITERS, 0, 0, bench_pages(0) };
	struct pingpong b = { maps_b, SWITCH_ITERS, 0, 0, bench_pages(1) };
	struct thread *ta, *tb;
	uint32_t t;

	ta = thread_create_suspended("yield-a", yielder, &a, PRIO_BENCH, 2048);
	tb = thread_create_suspended("yield-b", yielder, &b, PRIO_BENCH, 2048);
	preempt_disable();              /* start both before either runs */
	thread_resume(ta);
	thread_resume(tb);
	preempt_enable();
	thread_join(ta);
	thread_join(tb);
	t = (b.t1 > a.t1 ? b.t1 : a.t1) - a.t0;
	return per_iter_x100(t, 2 * SWITCH_ITERS);
}

/* ---- five equal-priority threads, each counting and yielding in turn ---- */

#define NR_PEERS 5

static volatile uint32_t peers_count, peers_t0, peers_t1;

static void yield_peer(void *arg)
{
	int iters = (int)(intptr_t)arg;

	thread_yield();                 /* every peer started before timing */
	if (!peers_t0)
		peers_t0 = clock_read();
	for (int i = 0; i < iters; i++) {
		peers_count++;
		thread_yield();
	}
	peers_t1 = clock_read();
}

/* Time per yield when the yielder has four peers: the whole queue turns. */
static uint64_t measure_yield_peers(void)
{
	struct thread *t[NR_PEERS];
	char name[16];

	peers_count = peers_t0 = peers_t1 = 0;
	for (int i = 0; i < NR_PEERS; i++) {
		snprintf(name, sizeof(name), "peer-%d", i);
		t[i] = thread_create_suspended(name, yield_peer, (void *)(intptr_t)SWITCH_ITERS,
					       PRIO_BENCH, 2048);
	}
	preempt_disable();              /* start all before any runs */
	for (int i = 0; i < NR_PEERS; i++)
		thread_resume(t[i]);
	preempt_enable();
	for (int i = 0; i < NR_PEERS; i++)
		thread_join(t[i]);
	if (peers_count != NR_PEERS * SWITCH_ITERS)
		printf("bench: yield peers counted %u, not %d\n", (unsigned int)peers_count,
		       NR_PEERS * SWITCH_ITERS);
	return per_iter_x100(peers_t1 - peers_t0, NR_PEERS * SWITCH_ITERS);
}

/* ---- IRQ preemption: a soft IRQ wakes a higher-priority thread ---- */

static struct semaphore irq_sem;
static volatile bool irq_bench_stop;

static void bench_irq(unsigned int irq, void *arg)
{
	(void)arg;
	irq_clear_soft(irq);
	up(&irq_sem);
}

static void irq_high(void *arg)
{
	struct pingpong *pp = arg;
	void *addr[KM_MAX_IDX];

	map_pages(pp->pages, pp->maps, addr);
	for (;;) {
		down(&irq_sem);
		if (irq_bench_stop)
			break;
	}
	unmap_pages(pp->maps, addr);
}

static void irq_low(void *arg)
{
	struct pingpong *pp = arg;
	void *addr[KM_MAX_IDX];
	unsigned int line = irq_soft_line();

	map_pages(pp->pages, pp->maps, addr);
	irq_raise_soft(line);           /* warm up */
	pp->t0 = clock_read();
	for (int i = 0; i < pp->iters; i++)
		irq_raise_soft(line);   /* IRQ -> high runs -> blocks -> back here */
	pp->t1 = clock_read();
	irq_bench_stop = true;
	irq_raise_soft(line);
	unmap_pages(pp->maps, addr);
}

static uint64_t measure_irq(int maps_low, int maps_high)
{
	struct pingpong lo = { maps_low, SWITCH_ITERS, 0, 0, bench_pages(0) };
	struct pingpong hi = { maps_high, SWITCH_ITERS, 0, 0, bench_pages(1) };
	struct thread *tl, *th;

	sema_init(&irq_sem, 0);
	irq_bench_stop = false;
	request_irq(irq_soft_line(), bench_irq, NULL);
	th = thread_create("irq-high", irq_high, &hi, PRIO_BENCH + 1, 2048);
	tl = thread_create("irq-low", irq_low, &lo, PRIO_BENCH, 2048);
	thread_join(tl);
	thread_join(th);
	free_irq(irq_soft_line());
	/* Each iteration: IRQ entry, wake, switch in, block, switch back, IRQ exit. */
	return per_iter_x100(lo.t1 - lo.t0, SWITCH_ITERS);
}

/* ---- the cost of the kmap work alone, at a switch ---- */

static void kmap_switch_work(int maps, uint64_t *out_x100, uint64_t *in_x100)
{
	void *addr[KM_MAX_IDX];
	uint32_t t_out, t_in;
	const int iters = 500;

	map_pages(bench_pages(0), maps, addr);
	preempt_disable();
	measure_kmap_switch_work(iters, &t_out, &t_in);
	preempt_enable();
	unmap_pages(maps, addr);
	*out_x100 = per_iter_x100(t_out, iters);
	*in_x100 = per_iter_x100(t_in, iters);
}

/*
 * The unavoidable work of moving one map across a switch on a VIVT
 * ARM926, done back to back with nothing else: clean+invalidate the page's
 * lines, clear the PTE (line clean + drain), TLB invalidate; write the PTE
 * again (line clean + drain), TLB invalidate.
 */
static uint64_t measure_map_floor(void)
{
	const int iters = 1000;
	uint32_t t;

	preempt_disable();
	t = measure_map_move(bench_pages(3)[0], iters);
	preempt_enable();
	return per_iter_x100(t, iters);
}

void bench_switch(void)
{
	char name[48];
	uint64_t floor = measure_floor();

	bench_result("floor", "register switch only", floor);
	bench_result("floor", "one map moved (flush, PTE clear, PTE set, 2 TLB)", measure_map_floor());
	bench_result("switch", "yield, 5 equal-priority peers, no maps", measure_yield_peers());
	for (int i = 0; i < NR_COUNTS; i++) {
		int k = map_counts[i];
		uint64_t out, in;

		snprintf(name, sizeof(name), "yield, both hold %d", k);
		bench_result("switch", name, measure_yield(k, k));
		snprintf(name, sizeof(name), "irq round trip, low %d high 0", k);
		bench_result("switch", name, measure_irq(k, 0));
		if (k) {
			/* One side holds k: each round trip has one teardown and one restore. */
			snprintf(name, sizeof(name), "yield, one side holds %d", k);
			bench_result("switch", name, measure_yield(k, 0));
			snprintf(name, sizeof(name), "irq round trip, low 0 high %d", k);
			bench_result("switch", name, measure_irq(0, k));
			kmap_switch_work(k, &out, &in);
			snprintf(name, sizeof(name), "kmap teardown %d", k);
			bench_result("switch-part", name, out);
			snprintf(name, sizeof(name), "kmap restore %d", k);
			bench_result("switch-part", name, in);
		}
	}
}
