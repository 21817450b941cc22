/*
 * The eight RTOS event shapes of the Thread-Metric suite, counted as the
 * suite counts them, in events per second of virtual time (under -icount
 * its inverse is instructions per event).
 *
 * Each shape does the suite's work per event and calls every service
 * through the out-of-line porting layer (tm_port.c), with the suite's
 * semantics: gets, receives and allocations never wait, and the statuses
 * and message contents are checked. What one event is:
 *   basic            one pass over a 1024-word array (the thread's counter)
 *   cooperative      one relinquish and count by one of five equal peers
 *   preemptive       one count by one of five threads, each resuming the
 *                    next more urgent one and suspending itself (a round
 *                    of the five is five events)
 *   interrupt        one interrupt: the handler counts and puts a
 *                    semaphore, the thread raising it gets it back and counts
 *   interrupt preemption
 *                    one interrupt: the handler counts and resumes a more
 *                    urgent thread, which counts and suspends itself, and
 *                    the thread that raised it counts
 *   message          one 16-byte message sent and received back, its last
 *                    word checked and changed
 *   synchronization  one semaphore get and put
 *   memory           one 128-byte block allocated and freed
 * The figure is the counter the suite reports (the handler's for the two
 * interrupt shapes), taken over a window of virtual time by main, which
 * sleeps through it above the measured threads (as the suite's reporting
 * thread does), with the 100 Hz tick running. The one addition to the
 * suite's loops is a stop flag each tests (a load, a compare and a
 * branch per pass), so that the threads can be joined.
 */
#include <stdio.h>
#include <lokal/thread.h>
#include <lokal/irq.h>
#include <lokal/app.h>
#include <lokal/preempt.h>
#include "bench.h"
#include "tm_port.h"

#define WINDOW_TICKS    5
#define NR_PEERS        5

static volatile bool stop;
static volatile bool failed;            /* a status or a content check failed */

/* Counters a shape's reported figure and its checks read. */
static volatile unsigned long counter[NR_PEERS];
static volatile unsigned long handler_counter;

static unsigned long (*reported)(void);

/* Events per second of virtual time over one window, with the threads already running. */
static uint64_t window_rate(void)
{
	unsigned long c0;

	sleep_ticks(1);                 /* start on a tick */
	c0 = reported();
	sleep_ticks(WINDOW_TICKS);
	return (uint64_t)(reported() - c0) * CONFIG_HZ / WINDOW_TICKS;
}

static unsigned long sum_of_peers(void)
{
	unsigned long n = 0;

	for (int i = 0; i < NR_PEERS; i++)
		n += counter[i];
	return n;
}

static unsigned long first_counter(void)
{
	return counter[0];
}

static unsigned long handler_count(void)
{
	return handler_counter;
}

static void reset(unsigned long (*count)(void))
{
	for (int i = 0; i < NR_PEERS; i++)
		counter[i] = 0;
	handler_counter = 0;
	stop = false;
	failed = false;
	reported = count;
}

/* Resume threads 0 .. n-1 as one step, as the suite starts them before its scheduler. */
static void start_all(int n)
{
	preempt_disable();
	for (int i = 0; i < n; i++)
		tm_thread_resume(i);
	preempt_enable();
}

/* Stop the threads in the order given (each one resumed, then joined). */
static void join_in_order(const int *ids, int n)
{
	stop = true;
	for (int i = 0; i < n; i++) {
		thread_resume(tm_thread(ids[i]));
		thread_join(tm_thread(ids[i]));
	}
}

static void join_all(int n)
{
	static const int ids[] = { 0, 1, 2, 3, 4 };

	join_in_order(ids, n);
}

/* The suite's check: every counter within 1 of their average. */
static unsigned long spread_check(const char *shape, const volatile unsigned long *c, int n)
{
	unsigned long sum = 0, avg, worst = 0;

	for (int i = 0; i < n; i++)
		sum += c[i];
	avg = sum / n;
	for (int i = 0; i < n; i++) {
		unsigned long d = c[i] > avg ? c[i] - avg : avg - c[i];

		worst = d > worst ? d : worst;
	}
	printf("bench: %s counters within %lu of their average (%s)\n", shape, worst,
	       worst <= 1 ? "ok" : "FAILED: the suite allows 1");
	return worst;
}

static void result(const char *name, uint64_t rate)
{
	if (failed || rate == 0)
		printf("bench: %s: FAILED (a status or message check failed, or no event)\n", name);
	bench_result_unit("events", name, rate * 100, "ev/s");
}

/*
 * ---- basic processing: passes over a 1024-word array, each word becoming
 * (word + counter) ^ word. The array and the counter live in memory for
 * every word (9 instructions per word), as the suite's reference build
 * compiles its pass.
 */
static volatile unsigned long work[1024];

static inline void basic_pass(void)
{
	for (int i = 0; i < 1024; i++)
		work[i] = (work[i] + counter[0]) ^ work[i];
}

static void basic(void)
{
	for (int i = 0; i < 1024; i++)
		work[i] = 0;
	while (!stop) {
		basic_pass();
		counter[0]++;
	}
}

/*
 * The same passes with interrupts off: the rate of a CPU nobody else
 * uses. basic's figure over this one is the share the RTOS leaves to the
 * thread (the tick and the window's switches take the rest).
 */
static uint64_t basic_alone(void)
{
	unsigned long flags = local_irq_save();
	uint32_t t0 = clock_read();

	for (int i = 0; i < 64; i++) {
		basic_pass();
		counter[0]++;
	}
	t0 = clock_read() - t0;
	local_irq_restore(flags);
	return 64ull * 1000000000ull / ticks_to_ns(t0);
}

/* ---- cooperative: five peers at one priority, each relinquishes and counts ---- */
#define COOPERATIVE(n)                                          \
static void cooperative_##n(void)                               \
{                                                               \
	while (!stop) {                                         \
		tm_thread_relinquish();                         \
		counter[n]++;                                   \
	}                                                       \
}
COOPERATIVE(0) COOPERATIVE(1) COOPERATIVE(2) COOPERATIVE(3) COOPERATIVE(4)

/*
 * ---- preemptive: thread 0 (least urgent) resumes 1 and counts; 1..3
 * resume the next more urgent, count and suspend themselves; 4 counts and
 * suspends itself.
 */
#define PREEMPTIVE(n)                                           \
static void preemptive_##n(void)                                \
{                                                               \
	while (!stop) {                                         \
		if (n < NR_PEERS - 1)                           \
			tm_thread_resume(n + 1);                \
		counter[n]++;                                   \
		if (n > 0)                                      \
			tm_thread_suspend(n);                   \
	}                                                       \
}
PREEMPTIVE(0) PREEMPTIVE(1) PREEMPTIVE(2) PREEMPTIVE(3) PREEMPTIVE(4)

/* ---- interrupt processing: the handler counts and puts, the thread gets and counts ---- */
static void interrupt_handler(unsigned int irq, void *arg)
{
	(void)arg;
	irq_clear_soft(irq);
	handler_counter++;
	tm_semaphore_put(0);
}

static void interrupt(void)
{
	unsigned int line = irq_soft_line();

	if (tm_semaphore_get(0) != TM_SUCCESS) {        /* the unit it was created with */
		failed = true;
		return;
	}
	while (!stop) {
		irq_raise_soft(line);   /* back here once the handler has put */
		if (tm_semaphore_get(0) != TM_SUCCESS) {
			failed = true;
			return;
		}
		counter[0]++;
	}
}

/*
 * ---- interrupt preemption: thread 1 raises the interrupt and counts; the
 * handler counts and resumes thread 0, more urgent, which counts and
 * suspends itself before thread 1 goes on.
 */
static void preemption_handler(unsigned int irq, void *arg)
{
	(void)arg;
	irq_clear_soft(irq);
	handler_counter++;
	tm_thread_resume(0);
}

static void preempted(void)
{
	while (!stop) {
		counter[0]++;
		tm_thread_suspend(0);
	}
}

static void interrupter(void)
{
	unsigned int line = irq_soft_line();

	while (!stop) {
		irq_raise_soft(line);   /* thread 0 runs and suspends before this returns */
		counter[1]++;
	}
}

/* ---- message processing: a 16-byte message sent and received back, checked ---- */
static unsigned long sent[4], received[4];

static void message(void)
{
	sent[0] = 0x0badcafe;
	sent[1] = 0x1234abcd;
	sent[2] = 0x600dbeef;
	sent[3] = 0;
	while (!stop) {
		tm_queue_send(0, sent);
		tm_queue_receive(0, received);
		if (received[3] != sent[3]) {
			failed = true;
			return;
		}
		sent[3]++;
		counter[0]++;
	}
}

/* ---- synchronization: a semaphore got and put, the put's status checked ---- */
static void synchronization(void)
{
	while (!stop) {
		tm_semaphore_get(0);
		if (tm_semaphore_put(0) != TM_SUCCESS) {
			failed = true;
			return;
		}
		counter[0]++;
	}
}

/* ---- memory allocation: a 128-byte block allocated and freed, the free's status checked ---- */
static void memory(void)
{
	unsigned char *block;

	while (!stop) {
		tm_memory_pool_allocate(0, &block);
		if (tm_memory_pool_deallocate(0, block) != TM_SUCCESS) {
			failed = true;
			return;
		}
		counter[0]++;
	}
}

/* One thread at the suite's priority 10, measured, then stopped. */
static uint64_t run_one(void (*fn)(void))
{
	uint64_t rate;

	reset(first_counter);
	if (tm_thread_create(0, 10, fn) != TM_SUCCESS)
		return 0;
	start_all(1);
	rate = window_rate();
	join_all(1);
	return rate;
}

static bool create_peers(void (*const fn[NR_PEERS])(void), const int *prio)
{
	for (int i = 0; i < NR_PEERS; i++)
		if (tm_thread_create(i, prio[i], fn[i]) != TM_SUCCESS)
			return false;
	return true;
}

/* The five peers' counters as the window ended, checked once they are stopped. */
static void join_peers_and_check(const char *shape)
{
	unsigned long snap[NR_PEERS];

	for (int i = 0; i < NR_PEERS; i++)
		snap[i] = counter[i];
	join_all(NR_PEERS);
	spread_check(shape, snap, NR_PEERS);
}

void bench_events(void)
{
	static void (*const coop[NR_PEERS])(void) = {
		cooperative_0, cooperative_1, cooperative_2, cooperative_3, cooperative_4 };
	static void (*const pre[NR_PEERS])(void) = {
		preemptive_0, preemptive_1, preemptive_2, preemptive_3, preemptive_4 };
	static const int coop_prio[NR_PEERS] = { 3, 3, 3, 3, 3 };
	static const int pre_prio[NR_PEERS] = { 10, 9, 8, 7, 6 };
	static const int preemption_order[] = { 1, 0 };
	uint64_t rate;
	unsigned long c[3];

	printf("bench: RTOS event shapes as the Thread-Metric suite counts them, events per second of "
	       "virtual time (%d-tick windows, HZ=%d)\n", WINDOW_TICKS, CONFIG_HZ);
	rate = run_one(basic);
	result("basic", rate);
	reset(first_counter);
	bench_result_unit("events", "basic, share of the CPU left to the thread",
			  rate * 100 * 100 / basic_alone(), "%");

	reset(sum_of_peers);
	rate = 0;
	if (create_peers(coop, coop_prio)) {
		start_all(NR_PEERS);
		rate = window_rate();
		join_peers_and_check("cooperative");
	}
	result("cooperative", rate);

	reset(sum_of_peers);
	rate = 0;
	if (create_peers(pre, pre_prio)) {
		tm_thread_resume(0);
		rate = window_rate();
		join_peers_and_check("preemptive");
	}
	result("preemptive", rate);

	reset(handler_count);
	rate = 0;
	tm_semaphore_create(0);
	request_irq(irq_soft_line(), interrupt_handler, NULL);
	if (tm_thread_create(0, 10, interrupt) == TM_SUCCESS) {
		tm_thread_resume(0);
		rate = window_rate();
		c[0] = counter[0];
		c[1] = handler_counter;
		join_all(1);
		spread_check("interrupt (thread, handler)", c, 2);
	}
	free_irq(irq_soft_line());
	result("interrupt", rate);

	reset(handler_count);
	rate = 0;
	request_irq(irq_soft_line(), preemption_handler, NULL);
	if (tm_thread_create(0, 3, preempted) == TM_SUCCESS &&
	    tm_thread_create(1, 10, interrupter) == TM_SUCCESS) {
		tm_thread_resume(1);
		rate = window_rate();
		c[0] = counter[0];
		c[1] = counter[1];
		c[2] = handler_counter;
		/* The interrupter first: its last interrupt may still resume thread 0. */
		join_in_order(preemption_order, 2);
		spread_check("interrupt preemption (thread 0, thread 1, handler)", c, 3);
	}
	free_irq(irq_soft_line());
	result("interrupt preemption", rate);

	tm_queue_create(0);
	result("message", run_one(message));

	tm_semaphore_create(0);
	result("synchronization", run_one(synchronization));

	tm_memory_pool_create(0);
	result("memory", run_one(memory));
}
