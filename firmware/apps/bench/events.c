/*
 * The eight standard RTOS event shapes: how many times each shape's loop
 * completes in a fixed window of virtual time, as events per second.
 * An event is one pass of one measured thread's loop (the counters of
 * all the shape's threads are summed; interrupt handlers count nothing).
 * The measured threads run below main, which sleeps through the window
 * (tick-aligned, the 100 Hz tick running) and reads their counters at
 * both ends, so the window includes the tick's own cost. Every shape
 * calls the public services only. Each loop also tests a stop flag (a
 * load, a compare and a branch the shapes' definitions do not have).
 */
#include <stdio.h>
#include <lokal/thread.h>
#include <lokal/mutex.h>
#include <lokal/msgqueue.h>
#include <lokal/mempool.h>
#include <lokal/irq.h>
#include <lokal/app.h>
#include <asm/irqflags.h>
#include "bench.h"

#define WINDOW_TICKS    5
#define PRIO_EV         (PRIO_MAIN - 8)         /* the measured threads: 8 .. 12 */
#define NR_PEERS        5

static volatile unsigned long counter[NR_PEERS];
static volatile bool stop;
static struct thread *peer[NR_PEERS];

static unsigned long total(void)
{
	unsigned long n = 0;

	for (int i = 0; i < NR_PEERS; i++)
		n += counter[i];
	return n;
}

/* Events per second of virtual time over one window, with the threads already running. */
static uint64_t window_rate(void)
{
	unsigned long c0;

	sleep_ticks(1);                 /* start on a tick */
	c0 = total();
	sleep_ticks(WINDOW_TICKS);
	return (uint64_t)(total() - c0) * CONFIG_HZ / WINDOW_TICKS;
}

static void reset(void)
{
	for (int i = 0; i < NR_PEERS; i++)
		counter[i] = 0;
	stop = false;
}

static void join_all(int n)
{
	stop = true;
	for (int i = 0; i < n; i++) {
		thread_resume(peer[i]);
		thread_join(peer[i]);
	}
}

/*
 * ---- 1: basic processing: a pass over a 1024-word array, each word
 * becoming (word + counter) ^ word. The counter is read from memory for
 * each word (a store to the array might change it), as the shape's
 * reference code compiles.
 */
static uint32_t work[1024];
static uint32_t basic_counter;

static inline void basic_pass(void)
{
	for (int i = 0; i < 1024; i++)
		work[i] = (work[i] + basic_counter) ^ work[i];
	basic_counter++;
}

static void basic(void *arg)
{
	(void)arg;
	while (!stop) {
		basic_pass();
		counter[0]++;
	}
}

/*
 * The same passes with interrupts off: the rate of a CPU nobody else
 * uses. Shape 1's figure over this one is the share the RTOS leaves to
 * the thread (the tick and the window's switches take the rest).
 */
static uint64_t basic_alone(void)
{
	unsigned long flags = arch_local_irq_save();
	uint32_t t0 = clock_read();

	for (int i = 0; i < 64; i++)
		basic_pass();
	t0 = clock_read() - t0;
	arch_local_irq_restore(flags);
	return 64ull * 1000000000ull / ticks_to_ns(t0);
}

/* ---- 2: cooperative: five peers at one priority, count and yield ---- */
static void cooperative(void *arg)
{
	volatile unsigned long *mine = &counter[(intptr_t)arg];

	while (!stop) {
		(*mine)++;
		thread_yield();
	}
}

/* ---- 3: preemptive: each resumes the next more urgent, counts, suspends itself ---- */
static void preemptive(void *arg)
{
	int i = (int)(intptr_t)arg;
	volatile unsigned long *mine = &counter[i];
	struct thread *next = NULL;

	while (!stop) {
		if (i < NR_PEERS - 1) {
			if (!next)
				next = peer[i + 1];
			thread_resume(next);
		}
		(*mine)++;
		if (i > 0)
			thread_suspend(current);
	}
}

/* ---- 4: interrupt processing: the handler counts and posts, the thread takes ---- */
static struct semaphore irq_sem;

static void irq_post(unsigned int irq, void *arg)
{
	(void)arg;
	irq_clear_soft(irq);
	up(&irq_sem);
}

static void interrupt(void *arg)
{
	unsigned int line = irq_soft_line();

	(void)arg;
	while (!stop) {
		irq_raise_soft(line);
		down(&irq_sem);
		counter[0]++;
	}
}

/* ---- 5: interrupt preemption: the handler resumes a more urgent thread ---- */
static void irq_resume(unsigned int irq, void *arg)
{
	(void)arg;
	irq_clear_soft(irq);
	thread_resume(peer[1]);
}

static void preempted(void *arg)
{
	(void)arg;
	while (!stop) {
		counter[1]++;
		thread_suspend(current);
	}
}

static void interrupter(void *arg)
{
	unsigned int line = irq_soft_line();

	(void)arg;
	while (!stop) {
		irq_raise_soft(line);   /* the handler's resume preempts us here */
		counter[0]++;
	}
}

/* ---- 6: message processing: send a 16-byte message, receive it back ---- */
static struct msgqueue queue;
static uint32_t ring[10 * 4];

static void message(void *arg)
{
	uint32_t out[4] = { 1, 2, 3, 4 }, in[4];

	(void)arg;
	while (!stop) {
		msgq_send(&queue, out, MAX_SCHEDULE_TIMEOUT);
		msgq_receive(&queue, in, MAX_SCHEDULE_TIMEOUT);
		counter[0]++;
	}
}

/* ---- 7: synchronization: take a binary semaphore and give it back ---- */
static struct semaphore binary;

static void synchronization(void *arg)
{
	(void)arg;
	while (!stop) {
		down(&binary);
		up(&binary);
		counter[0]++;
	}
}

/* ---- 8: memory allocation: a 128-byte block from a pool, freed ---- */
static struct mempool pool;
static uint64_t region[2048 / 8];

static void memory(void *arg)
{
	void *b;

	(void)arg;
	while (!stop) {
		mempool_alloc(&pool, &b, MAX_SCHEDULE_TIMEOUT);
		mempool_free(&pool, b);
		counter[0]++;
	}
}

static uint64_t run_one(void (*fn)(void *), int prio)
{
	uint64_t rate;

	reset();
	peer[0] = thread_create("ev", fn, NULL, prio, 2048);
	rate = window_rate();
	join_all(1);
	return rate;
}

static void result(const char *name, uint64_t rate)
{
	bench_result_unit("events", name, rate * 100, "ev/s");
}

void bench_events(void)
{
	uint64_t rate;
	unsigned long lo, hi;

	printf("bench: RTOS event shapes, events per second of virtual time (%d-tick windows, HZ=%d)\n",
	       WINDOW_TICKS, CONFIG_HZ);
	rate = run_one(basic, PRIO_EV);
	result("basic", rate);
	bench_result_unit("events", "basic, share of the CPU left to the thread",
			  rate * 100 * 100 / basic_alone(), "%");

	reset();
	for (int i = 0; i < NR_PEERS; i++)
		peer[i] = thread_create_suspended("coop", cooperative, (void *)(intptr_t)i, PRIO_EV, 2048);
	preempt_disable();              /* all queued before the first runs */
	for (int i = 0; i < NR_PEERS; i++)
		thread_resume(peer[i]);
	preempt_enable();
	rate = window_rate();
	stop = true;
	lo = hi = counter[0];
	for (int i = 1; i < NR_PEERS; i++) {
		lo = counter[i] < lo ? counter[i] : lo;
		hi = counter[i] > hi ? counter[i] : hi;
	}
	join_all(NR_PEERS);
	printf("bench: cooperative counters within %lu of each other (%lu %lu %lu %lu %lu)\n", hi - lo,
	       counter[0], counter[1], counter[2], counter[3], counter[4]);
	result("cooperative", rate);

	reset();
	for (int i = NR_PEERS - 1; i >= 0; i--)
		peer[i] = thread_create_suspended("pre", preemptive, (void *)(intptr_t)i, PRIO_EV + i, 2048);
	thread_resume(peer[0]);
	rate = window_rate();
	join_all(NR_PEERS);
	result("preemptive", rate);

	sema_init(&irq_sem, 0);
	request_irq(irq_soft_line(), irq_post, NULL);
	result("interrupt", run_one(interrupt, PRIO_EV));
	free_irq(irq_soft_line());

	reset();
	request_irq(irq_soft_line(), irq_resume, NULL);
	peer[1] = thread_create_suspended("preempted", preempted, NULL, PRIO_EV + 1, 2048);
	peer[0] = thread_create("interrupter", interrupter, NULL, PRIO_EV, 2048);
	rate = window_rate();
	stop = true;
	free_irq(irq_soft_line());
	join_all(2);
	result("interrupt preemption", rate);

	msgq_init(&queue, ring, 16, 10);
	result("message", run_one(message, PRIO_EV));

	sema_init(&binary, 1);
	result("synchronization", run_one(synchronization, PRIO_EV));

	mempool_init(&pool, region, sizeof(region), 128);
	result("memory", run_one(memory, PRIO_EV));
}
