/* Thread API for applications. */
#ifndef LOKAL_THREAD_H
#define LOKAL_THREAD_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <lokal/sched.h>

#define THREAD_STACK_DEFAULT    4096
#define PRIO_IDLE               0
#define PRIO_MAX                (NR_PRIO - 1)

/*
 * Create a thread that runs entry(arg) at prio (1..PRIO_MAX; higher runs
 * first). Its stack is stack_size rounded up to whole pages, with an
 * unmapped guard page below it (an overflow faults and is reported). It runs
 * at once if it outranks the caller. Returns NULL when memory is exhausted.
 * It may sleep (its memory comes from the heap, whose lock is a mutex):
 * from boot code or a preemptible thread, not from atomic context or an
 * IRQ handler (reported, naming the thread); to start several threads at
 * once, create them suspended and resume them with preemption off. A NULL
 * name or entry, or a priority outside 1..PRIO_MAX, is a reported bug
 * naming the call and the value.
 */
struct thread *thread_create(const char *name, void (*entry)(void *), void *arg,
			     int prio, size_t stack_size);
/* The same, but the thread waits suspended until thread_resume(). */
struct thread *thread_create_suspended(const char *name, void (*entry)(void *), void *arg,
				       int prio, size_t stack_size);
/*
 * Stop t until thread_resume(t). Suspending oneself blocks (threads only,
 * not atomic). Another thread may be suspended from anywhere, IRQ
 * handlers included: if it is waiting, its wait goes on, and when it ends
 * (wake-up or time-out) the thread stays stopped, its wait's result kept.
 * A suspended thread keeps its local kmaps (restored when it runs again)
 * and the mutexes it owns: their waiters wait until it is resumed and
 * unlocks. Suspending a suspended or exited thread does nothing (there
 * is no count). NULL or the idle thread is a reported bug.
 */
void thread_suspend(struct thread *t);
/* Let a suspended t go on; returns whether it was suspended. Callable from IRQ handlers. */
bool thread_resume(struct thread *t);
/* End the calling thread. Holding a local kmap here is a reported bug. */
void thread_exit(int code) __attribute__((noreturn));
/* Wait for t to exit, free it, and return its exit code. Joining yourself is a reported bug. */
int thread_join(struct thread *t);
/*
 * Go to the back of the queue of the caller's priority. Not from atomic
 * context (reported, naming the thread); page faults disabled are fine:
 * the caller stays ready, as when it is preempted.
 */
void thread_yield(void);
/*
 * Round-robin among equal priorities: t, while it runs and a peer of its
 * priority is ready, goes behind that peer after ticks ticks of the tick
 * (a fresh slice starts now). 0 turns slicing off for t: it keeps the CPU
 * until it yields, blocks or is preempted by a more urgent thread. New
 * threads get SCHED_SLICE_TICKS (2). Callable from threads and IRQ
 * handlers; NULL or the idle thread is a reported bug.
 */
void thread_set_timeslice(struct thread *t, unsigned int ticks);
/* Sleep for at least ms milliseconds (rounded up to ticks). */
void sleep_ms(unsigned int ms);
/* Sleep for at least n ticks. */
void sleep_ticks(unsigned int n);

/* Ticks since the scheduler started (HZ per second). */
uint64_t jiffies_read(void);

/* Print a ps-style table of every thread. */
void thread_ps(void);
/* Bytes of t's stack never written (the high-water mark's complement). */
size_t thread_stack_unused(const struct thread *t);

/* Counters since boot. */
struct sched_stats {
	unsigned long switches;         /* context switches */
	unsigned long kmap_switches;    /* switches that tore down or restored kmaps */
	unsigned long kmaps_restored;   /* individual maps re-installed */
	unsigned long preemptions;      /* switches forced from IRQ exit or preempt_enable */
	unsigned long irqs_in_kmap_switch; /* interrupts taken while a switch moved kmaps */
	unsigned long kmap_switches_cut;   /* kmap work left for later: a more urgent thread woke */
};
void sched_get_stats(struct sched_stats *st);

/* Start the scheduler: the caller becomes the idle thread. Never returns. */
void sched_start(void) __attribute__((noreturn));
void sched_init(void);

#endif
