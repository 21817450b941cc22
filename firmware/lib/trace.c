/* Switch trace buffer (see lokal/trace.h). */
#include <lokal/trace.h>
#include <lokal/sched.h>
#include <lokal/platform.h>
#include <asm/irqflags.h>

static struct trace_event events[TRACE_EVENTS];
static volatile unsigned int nr_events;
volatile bool __trace_active;
static volatile bool overflow;

void trace_start(void)
{
	unsigned long flags = arch_local_irq_save();

	nr_events = 0;
	overflow = false;
	__trace_active = true;
	arch_local_irq_restore(flags);
}

void trace_stop(void)
{
	__trace_active = false;
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

void trace_record_at(enum trace_signal sig, unsigned int value, uint32_t time)
{
	unsigned long flags;
	unsigned int i;

	if (!__trace_active)
		return;
	flags = arch_local_irq_save();
	i = nr_events;
	if (i < TRACE_EVENTS) {
		events[i].time = time;
		events[i].signal = (uint8_t)sig;
		events[i].value = (uint8_t)(value > 255 ? 255 : value);
		nr_events = i + 1;
	} else {
		overflow = true;
	}
	arch_local_irq_restore(flags);
}

void __trace_switch_start(void)
{
	trace_record(TRACE_SWITCH, 1);
}

void __trace_switch_end(const struct thread *to, unsigned int kmaps)
{
	trace_record(TRACE_KMAPS, kmaps);
	trace_record(TRACE_THREAD, to->id);
	trace_record(TRACE_SWITCH, 0);
}
