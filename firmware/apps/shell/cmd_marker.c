/* marker test [Hz] | on | off: check a logic analyzer's wiring and sample rate. */
#include <stdio.h>
#include <string.h>
#include <lokal/platform.h>
#include "shell.h"

#define HZ_DEFAULT      1000
#define HZ_MAX          100000

/* Both pins toggle together at hz until a key arrives; returns full cycles. */
static unsigned long square_wave(unsigned long hz)
{
	uint32_t half = (uint32_t)(clock_hz() / (2 * hz));
	uint32_t edge = clock_read();
	unsigned long edges = 0;
	int level = 0;

	while (!shell_key_pressed(true)) {
		/* Busy-wait on the counter: a tick's sleep is far too coarse. */
		if ((int32_t)(clock_read() - edge) < (int32_t)half)
			continue;
		edge += half;
		level = !level;
		switch_marker_set(level);
		wake_marker_set(level);
		edges++;
	}
	switch_marker_set(0);
	wake_marker_set(0);
	return edges / 2;
}

int cmd_marker(int argc, char **argv)
{
	unsigned long hz = HZ_DEFAULT;

	if (argc < 2)
		return SHELL_USAGE;
	if (!strcmp(argv[1], "on") || !strcmp(argv[1], "off")) {
		if (argc != 2)
			return SHELL_USAGE;
		switch_marker_enable(!strcmp(argv[1], "on"));
		printf("marker: switch marker %s\n", argv[1]);
		return SHELL_OK;
	}
	if (strcmp(argv[1], "test") || argc > 3)
		return SHELL_USAGE;
	if (argc == 3 && !shell_parse_ulong(argv[2], 1, HZ_MAX, &hz))
		return SHELL_USAGE;
	printf("marker test: %lu Hz square wave on the switch and wake pins; press any key to stop\n", hz);
	fflush(stdout);
	printf("marker test: stopped after %lu cycles\n", square_wave(hz));
	return SHELL_OK;
}
