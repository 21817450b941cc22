/*
 * Switch trace: the same edges a logic analyzer sees on the marker pins,
 * time-stamped with the platform counter, so a QEMU run yields the data a
 * capture on a real board would. Single writer (interrupts off), so a
 * plain index is lock-free; readers copy and compare the index.
 */
#ifndef LOKAL_TRACE_H
#define LOKAL_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <lokal/cpu.h>

struct thread;

enum trace_signal {
	TRACE_SWITCH,           /* high: a context switch is in progress */
	TRACE_WAKE,             /* high: a woken thread is waiting to run */
	TRACE_KMAPS,            /* value: maps restored at the switch that just ended */
	TRACE_THREAD,           /* value: id of the thread now running */
};

struct trace_event {
	uint32_t time;          /* platform counter (clock_read()) */
	uint8_t signal;         /* enum trace_signal */
	uint8_t value;
};

#define TRACE_EVENTS 196608    /* 10^4 wake-ups need ~12 events each */

/* Start recording from an empty buffer (recording stops when it is full). */
void trace_start(void);
void trace_stop(void);
bool trace_active(void);
/* Number of events recorded and whether any were lost to a full buffer. */
unsigned int trace_count(bool *overflowed);
/* The buffer for in-place post-processing; NULL while recording. */
struct trace_event *trace_events_mutable(void);

/* Record an edge of sig to value at the current counter value (a no-op when not recording). */
void trace_record(enum trace_signal sig, unsigned int value);
/* Record an edge that happened at an earlier counter value (e.g. a timer's expiry). */
void trace_record_at(enum trace_signal sig, unsigned int value, uint32_t time);
/* Print the buffer as a framed VCD for tools/latency (see its FORMAT.md). */
void trace_dump_vcd(const char *label);
/*
 * The same, asking stop() (if not NULL) every few events whether to end
 * early; a dump ended early still ends with its closing frame line.
 * Returns the number of events printed.
 */
unsigned int trace_dump_vcd_until(const char *label, bool (*stop)(void));

/* Context-switch edges, called by the scheduler with interrupts off. */
void __trace_switch_start(void);
void __trace_switch_end(const struct thread *to, unsigned int kmaps);

/* Inline test: an idle trace costs the switch path one load and branch. */
#define __trace_active (pcpu_hot.trace_active)

/* A new thread's switches record if the trace does (before it is on all_threads). */
static inline void trace_thread_init(struct thread *t)
{
	t->switch_work.trace_out = __trace_active;
	t->switch_work.trace_in = __trace_active;
}

/* The scheduler's switch edges: one load and branch when no trace runs. */
static inline void trace_switch_start(void)
{
	if (__trace_active)
		__trace_switch_start();
}
static inline void trace_switch_end(const struct thread *to, unsigned int kmaps)
{
	if (__trace_active)
		__trace_switch_end(to, kmaps);
}

#endif
