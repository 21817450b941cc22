/* marker test [Hz] | on | off: check a logic analyzer's wiring and sample rate. */
#include <stdio.h>
#include <string.h>
#include <lokal/platform.h>
#include "shell.h"

#define HZ_DEFAULT      1000

/*
 * Both pins toggle together at hz until a key arrives. Returns full cycles;
 * *ns gets the time it ran, summed from the counter (which wraps).
 */
static unsigned long square_wave(unsigned long hz, uint64_t *ns)
{
	uint32_t half = (uint32_t)(clock_hz() / (2 * hz));
	uint32_t edge = clock_read(), last = edge, now;
	uint64_t ticks = 0;
	unsigned long edges = 0;
	int level = 0;

	while (!shell_key_pressed(true)) {
		now = clock_read();
		ticks += now - last;
		last = now;
		/* Busy-wait on the counter: a tick's sleep is far too coarse. */
		if ((int32_t)(now - edge) < (int32_t)half)
			continue;
		edge += half;
		level = !level;
		switch_marker_set(level);
		wake_marker_set(level);
		edges++;
	}
	switch_marker_set(0);
	wake_marker_set(0);
	*ns = ticks * 1000000000ull / clock_hz();
	return edges / 2;
}

static bool switch_marker_on = true;

int cmd_marker(int argc, char **argv)
{
	unsigned long hz = HZ_DEFAULT, cycles;
	uint64_t ns;

	if (argc < 2)
		return SHELL_USAGE;
	if (!strcmp(argv[1], "on") || !strcmp(argv[1], "off")) {
		if (argc != 2)
			return SHELL_USAGE;
		switch_marker_on = !strcmp(argv[1], "on");
		switch_marker_enable(switch_marker_on);
		printf("marker: switch marker %s\n", argv[1]);
		return SHELL_OK;
	}
	if (strcmp(argv[1], "test") || argc > 3)
		return SHELL_USAGE;
	if (argc == 3 && !shell_parse_ulong(argv[2], 1, SHELL_MARKER_HZ_MAX, &hz))
		return SHELL_USAGE;
	printf("marker test: %lu Hz square wave on the switch and wake pins; press any key to stop\n", hz);
	fflush(stdout);
	switch_marker_enable(1);        /* the test drives both pins, even after 'marker off' */
	cycles = square_wave(hz, &ns);
	printf("marker test: stopped after %lu cycles in %lu ms\n", cycles,
	       (unsigned long)(ns / 1000000));
	switch_marker_enable(switch_marker_on);
	return SHELL_OK;
}
