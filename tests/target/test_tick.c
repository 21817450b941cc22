/*
 * The tick rate against the 24 MHz counter. tests.list runs this image
 * under -icount (QEMU_ICOUNT=1), where the timer and the counter follow
 * instruction-counted virtual time: the result depends on the firmware
 * alone, not on how busy the host is.
 *
 * A low-priority thread keeps the CPU busy while the test sleeps: under
 * -icount with sleep=off, QEMU delivers the periodic SP804 tick to a CPU
 * idling in WFI one period late (every sleep took exactly twice as long),
 * so the measurement would be of QEMU's idle warp, not of the tick.
 */
#include <lokal/thread.h>
#include <lokal/platform.h>
#include <lokal/app.h>
#include "ktest.h"

/* Runs whenever the test sleeps, until the image exits. */
static void spinner(void *arg)
{
	(void)arg;
	for (;;)
		__asm__ volatile("" ::: "memory");
}

/* elapsed counter cycles within 1 % of what `ticks` ticks at CONFIG_HZ take */
static void expect_ticks(unsigned int ticks, uint32_t elapsed)
{
	uint32_t expect = (uint32_t)((uint64_t)clock_hz() * ticks / CONFIG_HZ);

	if (elapsed * 100ull < expect * 99ull || elapsed * 100ull > expect * 101ull)
		ktest_fail(__FILE__, __LINE__, "%u ticks took %lu counter cycles, expected %lu +-1%%",
			   ticks, (unsigned long)elapsed, (unsigned long)expect);
}

/*
 * Four ticks are enough: 1 % of them is 40 us at HZ=1000, tens of
 * thousands of instructions more than a wake-up's jitter, and the emulator
 * runs this image on every board at one instruction per nanosecond.
 */
static void tick_runs_at_hz(void)
{
	const unsigned int ticks = 4;
	uint64_t j0;
	uint32_t t0, elapsed;

	sleep_ticks(1);                 /* start on a tick edge */
	j0 = jiffies_read();
	t0 = clock_read();
	sleep_ticks(ticks);
	elapsed = clock_read() - t0;
	KT_ASSERT(jiffies_read() - j0 >= ticks);
	expect_ticks(ticks, elapsed);
}

static void sleep_ms_lasts_its_ticks(void)
{
	/* 40 ms: a whole number of ticks at HZ 25, 50, 100, 125, 200, 250, 500 and 1000 */
	const unsigned int ms = 40;
	uint32_t t0, elapsed;

	sleep_ticks(1);
	t0 = clock_read();
	sleep_ms(ms);
	elapsed = clock_read() - t0;
	expect_ticks((unsigned int)((uint64_t)ms * CONFIG_HZ / 1000), elapsed);
}

static void tick_counts_while_busy(void)
{
	const unsigned int ticks = 4;
	uint64_t j0;
	uint32_t t0;

	sleep_ticks(1);
	j0 = jiffies_read();
	t0 = clock_read();
	while (jiffies_read() - j0 < ticks)
		;
	expect_ticks(ticks, clock_read() - t0);
}

static void start_spinner(void)
{
	KT_ASSERT(thread_create("spinner", spinner, NULL, PRIO_MAIN - 1, 1024) != NULL);
}

KTEST_MAIN(KTEST(start_spinner), KTEST(tick_runs_at_hz), KTEST(sleep_ms_lasts_its_ticks),
	   KTEST(tick_counts_while_busy))
