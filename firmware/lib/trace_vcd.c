/*
 * Print the trace buffer as a VCD (value change dump), framed so that
 * tools/latency can cut it out of a console log. Times are nanoseconds
 * since the first event, converted from counter ticks with exact rounding;
 * a $comment carries the counter rate so a reader can recover ticks.
 */
#include <stdio.h>
#include <lokal/trace.h>
#include <lokal/platform.h>

static const char id_of[] = { 's', 'w', 'k', 't' };

static void print_bin(char id, unsigned int v)
{
	char buf[12];
	int n = 0;

	do {
		buf[n++] = (char)('0' + (v & 1));
		v >>= 1;
	} while (v);
	putchar('b');
	while (n)
		putchar(buf[--n]);
	printf(" %c\n", id);
}

/*
 * Edges stamped with an earlier time (a timer's expiry, recorded when its
 * IRQ runs) land out of order; VCD needs time order. Events are nearly
 * sorted, so a stable insertion sort on the signed distance from the first
 * event is cheap.
 */
static void sort_by_time(struct trace_event *ev, unsigned int n)
{
	uint32_t base = n ? ev[0].time : 0;

	for (unsigned int i = 1; i < n; i++) {
		struct trace_event e = ev[i];
		int32_t key = (int32_t)(e.time - base);
		unsigned int j = i;

		while (j > 0 && (int32_t)(ev[j - 1].time - base) > key) {
			ev[j] = ev[j - 1];
			j--;
		}
		ev[j] = e;
	}
}

void trace_dump_vcd(const char *label)
{
	trace_dump_vcd_until(label, NULL);
}

/* A stop check per console line would cost more than the line: every 64 events. */
#define STOP_CHECK_EVERY 64

unsigned int trace_dump_vcd_until(const char *label, bool (*stop)(void))
{
	bool overflowed;
	unsigned int n = trace_count(&overflowed), i;
	struct trace_event *ev = trace_events_mutable();

	if (!ev)
		return 0;
	uint64_t hz = clock_hz();
	uint64_t last = (uint64_t)-1;
	uint32_t t0;

	sort_by_time(ev, n);
	t0 = n ? ev[0].time : 0;

	printf("--- lokal-trace-vcd begin ---\n");
	printf("$comment lokal trace \"%s\": %u events%s; counter %lu Hz $end\n", label, n,
	       overflowed ? " (buffer overflowed, later events lost)" : "", (unsigned long)hz);
	printf("$timescale 1 ns $end\n$scope module lokal $end\n");
	printf("$var wire 1 s switch $end\n$var wire 1 w wake $end\n");
	printf("$var integer 8 k kmaps $end\n$var integer 8 t thread $end\n");
	printf("$upscope $end\n$enddefinitions $end\n");
	printf("#0\n$dumpvars\n0s\n0w\nb0 k\nb0 t\n$end\n");
	for (i = 0; i < n; i++) {
		uint64_t ticks = (uint32_t)(ev[i].time - t0);
		uint64_t ns = (ticks * 1000000000ull + hz / 2) / hz;

		if (stop && i % STOP_CHECK_EVERY == 0 && stop())
			break;
		if (ns != last)
			printf("#%llu\n", (unsigned long long)ns);
		last = ns;
		if (ev[i].signal <= TRACE_WAKE)
			printf("%u%c\n", ev[i].value ? 1u : 0u, id_of[ev[i].signal]);
		else
			print_bin(id_of[ev[i].signal], ev[i].value);
	}
	if (i < n)
		printf("$comment stopped after %u of %u events $end\n", i, n);
	printf("--- lokal-trace-vcd end ---\n");
	return i;
}
