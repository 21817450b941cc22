/*
 * The state of the one CPU that every switch path reads: the preempt
 * count and the switch request, the running thread, the ready queues and
 * whether the switch trace records. One object, so that one base register
 * reaches all of it: as separate globals each cost the yield and the IRQ
 * exit one more literal-pool load (yield_no_maps_ns, irq_to_woken_thread_ns
 * in results.json). The scheduler (sched.c) defines it.
 * Debug tools read it by its symbol, pcpu_hot: gdb by its type, the VIVT
 * emulator at the offsets pcpu_hot_offsets[] gives. Named as Linux names
 * its object of hot per-CPU fields; this_cpu_*() is Linux's per-CPU
 * accessor API, which a port's code may well use.
 */
#ifndef LOKAL_CPU_H
#define LOKAL_CPU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <lokal/list.h>
#include <lokal/sched.h>        /* NR_PRIO, struct thread */

/*
 * Why a switch is due: a set of bits, each kept until the switch that
 * serves it, so that one reason never hides another.
 *  RESCHED_WAKE:   a thread more urgent than the running one became ready;
 *  RESCHED_ROTATE: the running thread's time slice is used up and a peer
 *                  waits: it goes to the tail of its queue, not the head.
 */
typedef unsigned int resched_t;
#define RESCHED_WAKE    ((resched_t)0x001u)     /* byte 0 of the word */
#define RESCHED_ROTATE  ((resched_t)0x100u)     /* byte 1 */

/*
 * The two words every switch path tests, side by side and 8-byte aligned
 * so that one 64-bit load fetches both: "nothing atomic, no switch due"
 * is then a single test (thread_yield()'s fast path: yield_no_maps_ns;
 * irq_exit()'s: events_interrupt).
 *  count:        preempt_count (lokal/preempt.h; 1 until sched_begin():
 *                boot code is atomic, so no IRQ switches before the
 *                scheduler runs);
 *  resched:      need_resched(): why a switch is due (above).
 */
union preempt_state {
	struct {
		unsigned int count;
		union {
			resched_t resched;
			/* A byte per reason: a wake-up sets its reason with one store. */
			unsigned char resched_byte[4];
		};
	};
	uint64_t both;
};
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "RESCHED_* name the bytes of a little-endian word");

/*
 * The ready queues, one per priority; the running thread is on none.
 * Bit p of bitmap is set exactly when queue[p] is not empty.
 */
struct rq {
	struct list_head queue[NR_PRIO];        /* first: queue[p] is at base + 8p */
	uint32_t bitmap;
	unsigned int gen;       /* debug builds: bumped at every queue change */
};

/*
 * The ready queues come first, so that queue[p] is at pcpu_hot + 8p: one
 * instruction fewer at every queue the switch paths index by priority.
 */
struct cpu_state {
	struct rq rq;
	volatile union preempt_state preempt;   /* 8-byte aligned */
	struct thread *curr;
	volatile bool trace_active;             /* lokal/trace.h */
	unsigned long nr_preemptions;           /* sched_get_stats()'s preemptions: counted beside curr */
} __attribute__((aligned(8)));

/* The layout promises above, which the switch paths' address arithmetic relies on. */
_Static_assert(offsetof(struct cpu_state, rq) == 0 && offsetof(struct rq, queue) == 0,
	       "the ready queues first: queue[p] at pcpu_hot + 8p");
_Static_assert(sizeof(void *) != 4 || sizeof(struct list_head) == 8,
	       "a ready queue is 8 bytes on the target: queue[p] at base + 8p");
_Static_assert(offsetof(struct cpu_state, preempt) % 8 == 0 && sizeof(union preempt_state) == 8,
	       "count and resched 8-byte aligned: one 64-bit load fetches both");

extern struct cpu_state pcpu_hot;
/* For the VIVT emulator: where in pcpu_hot the preempt count and curr are (in this order). */
extern const unsigned int pcpu_hot_offsets[2];

/* The reasons a switch is due, 0 if none. */
static inline resched_t need_resched(void)
{
	return pcpu_hot.preempt.resched;
}

/* Ask for a switch, for reason why (interrupts off): a byte store per reason. */
static inline void set_need_resched(resched_t why)
{
	if (why & RESCHED_WAKE)
		pcpu_hot.preempt.resched_byte[0] = 1;
	if (why & RESCHED_ROTATE)
		pcpu_hot.preempt.resched_byte[1] = 1;
}

/* The switch being made serves every pending reason (interrupts off). */
static inline void clear_need_resched(void)
{
	pcpu_hot.preempt.resched = 0;
}

/* The running thread. Before the scheduler starts, the boot thread. */
#define current (pcpu_hot.curr)

#endif
