/* Switch trace buffer (see lokal/trace.h). */
#include <lokal/trace.h>
#include <lokal/sched.h>
#include <lokal/sched-internal.h>
#include <lokal/preempt.h>
#include <lokal/platform.h>
#include <asm/irqflags.h>

static struct trace_event events[TRACE_EVENTS];
static volatile unsigned int nr_events;
static volatile bool overflow;

/*
 * Tell every thread's switches whether to record (their switch_work's
 * trace bytes), and the switch path's other callers (the flag). With
 * preemption off no switch happens meanwhile, so every switch sees both
 * of its threads agree; interrupts stay on, as only threads create and
 * reap threads. A thread created later copies the flag (trace_thread_init()).
 */
static void set_active(bool on)
{
	struct list_head *pos;

	preempt_disable();
	__trace_active = on;
	list_for_each(pos, &all_threads)
		trace_thread_init(list_entry(pos, struct thread, all));
	preempt_enable();
}

void trace_start(void)
{
	unsigned long flags = arch_local_irq_save();

	nr_events = 0;
	overflow = false;
	arch_local_irq_restore(flags);
	set_active(true);
}

void trace_stop(void)
{
	set_active(false);
}

bool trace_active(void)
{
	return __trace_active;
}

unsigned int trace_count(bool *overflowed)
{
	if (overflowed)
		*overflowed = overflow;
	return nr_events;
}

struct trace_event *trace_events_mutable(void)
{
	return trace_active() ? NULL : events;
}

void trace_record(enum trace_signal sig, unsigned int value)
{
	if (__trace_active)
		trace_record_at(sig, value, clock_read());
}

static inline void put_event(struct trace_event *e, enum trace_signal sig, unsigned int value,
			     uint32_t time)
{
	*e = (struct trace_event){ time, (uint8_t)sig, (uint8_t)(value > 255 ? 255 : value) };
}

/* One event, interrupts off (the caller's): the single writer. */
static inline void record_locked(enum trace_signal sig, unsigned int value, uint32_t time)
{
	unsigned int i = nr_events;

	if (i < TRACE_EVENTS) {
		put_event(&events[i], sig, value, time);
		nr_events = i + 1;
	} else {
		overflow = true;
	}
}

void trace_record_at(enum trace_signal sig, unsigned int value, uint32_t time)
{
	unsigned long flags;

	if (!__trace_active)
		return;
	flags = arch_local_irq_save();
	record_locked(sig, value, time);
	arch_local_irq_restore(flags);
}

/*
 * The switch edges run inside the scheduler's interrupts-off window, which
 * every image keeps within a bound: they read the counter once and write
 * the events directly instead of masking interrupts again per event.
 */
void __trace_switch_start(void)
{
	record_locked(TRACE_SWITCH, 1, clock_read());
}

void __trace_switch_end(const struct thread *to, unsigned int kmaps)
{
	uint32_t now = clock_read();
	unsigned int i = nr_events;
	struct trace_event *e = &events[i];

	if (__builtin_expect(i > TRACE_EVENTS - 3, 0)) {        /* the buffer's last few */
		record_locked(TRACE_KMAPS, kmaps, now);
		record_locked(TRACE_THREAD, to->id, now);
		record_locked(TRACE_SWITCH, 0, now);
		return;
	}
	put_event(&e[0], TRACE_KMAPS, kmaps, now);
	put_event(&e[1], TRACE_THREAD, to->id, now);
	put_event(&e[2], TRACE_SWITCH, 0, now);
	nr_events = i + 3;
}
