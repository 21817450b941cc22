/*
 * Threads. The scheduler (firmware/kernel/sched.c) owns this structure;
 * other subsystems keep their per-thread state in it, as Linux's
 * task_struct holds kmap_ctrl.
 */
#ifndef LOKAL_SCHED_H
#define LOKAL_SCHED_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <asm/pgtable.h>
#include <asm/kmap_size.h>
#include <lokal/list.h>

/* A thread's local kmaps: the stack depth and the PTE of each level (kept by firmware/mm). */
struct kmap_ctrl {
	int idx;
	pte_t pteval[KM_MAX_IDX];
};

/*
 * What a switch must do besides swapping registers, as Linux keeps such
 * flags in thread_info: one byte per writer, so that no writer's store
 * races another's, and one halfword per side of the switch, so that the
 * scheduler tests each side with one load (out: when the thread leaves the
 * CPU; in: when it gets it).
 *  kmap_out, kmap_in:   the kmap scheme has work (firmware/mm, through
 *                       highmem-internal.h);
 *  trace_out, trace_in: the switch trace records (lib/trace.c sets both in
 *                       every thread while it records).
 */
union switch_work {
	struct {
		bool kmap_out, trace_out;
		bool kmap_in, trace_in;
	};
	struct {
		uint16_t out, in;
	};
};

enum thread_state {
	THREAD_READY,           /* on a ready queue, or running */
	THREAD_BLOCKED,         /* on a wait queue */
	THREAD_SLEEPING,        /* waiting for a tick */
	THREAD_DEAD,            /* exited, waiting to be joined */
	THREAD_SUSPENDED,       /* off every queue until thread_resume() */
};

#define THREAD_NAME_LEN 16
#define NR_PRIO         32      /* priorities 0 (idle) .. 31 (most urgent) */

struct cpu_context;
struct mutex;

struct thread {
	/*
	 * First, so that a queue entry is the thread itself: the yield fast
	 * path moves threads between queue and CPU with no offset arithmetic.
	 * (Debug tools find name[] through thread_name_offset.)
	 */
	struct list_head node;          /* ready queue or wait queue */
	void *saved_sp;                 /* arch context lives on the stack */
	char name[THREAD_NAME_LEN];
	unsigned int id;                /* small number for traces */
	int prio;                       /* effective: base, or inherited through a mutex */
	/*
	 * What a switch reads of the thread it leaves, side by side and 8-byte
	 * aligned so that where a pointer is 32 bits one load of queue_and_work
	 * fetches both (an LDRD on ARMv5): ready_queue, &runqueue.queue[prio],
	 * set with prio by sched_init_prio(), so that a yield finds its queue
	 * with no arithmetic; and switch_work (above). yield_no_maps_ns and
	 * yield_5_peers_ns in results.json.
	 */
	union {
		struct {
			struct list_head *ready_queue;
			union switch_work switch_work;
		};
		uint64_t queue_and_work;
	} __attribute__((aligned(8)));
	int base_prio;
	enum thread_state state;
	struct list_head all;           /* every thread, for ps */
	unsigned int slice;             /* ticks left in this time slice */
	unsigned int slice_ticks;       /* a whole slice; 0: never rotated by the tick */
	uint64_t wake_tick;             /* deadline of a sleep or a timed wait */
	struct list_head tnode;         /* on the timeout list while wake_tick is armed */
	int wait_result;                /* 0, or why a wait ended (-ETIMEDOUT) */
	/* What a blocked thread waits with: a buffer, a block, a flag mask. */
	void *wait_data;
	uint32_t wait_mask;
	unsigned int wait_mode;
	bool suspended;                 /* thread_suspend()ed: a wake-up leaves it SUSPENDED */
	struct mutex *blocked_on;        /* the mutex this thread sleeps for, if any */
	struct list_head held_mutexes;  /* mutexes it owns, for priority inheritance */

	unsigned int pagefault_disabled;
	unsigned int migrate_disabled;
	struct kmap_ctrl kmap_ctrl;

	void (*entry)(void *);
	void *arg;
	void *stack;
	size_t stack_size;
	int exit_code;
	struct wait_queue *joiners;

	/* statistics for ps and the benchmarks */
	unsigned long switches_in;
	unsigned long kmap_restores;
};

/* Where name[] sits in struct thread, for debuggers and the VIVT emulator. */
extern const unsigned int thread_name_offset;

/* current, the running thread, is in the CPU's state. */
#include <lokal/cpu.h>

#endif
