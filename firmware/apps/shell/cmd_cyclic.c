/* cyclic [PERIODS [PERIOD_US [LOAD]]]: make cyclic's measurement on the live system. */
#include <stdio.h>
#include <lokal/platform.h>
#include <generated/config.h>
#include "shell.h"
#include "cyclic.h"

static int cyclic_job(void *arg)
{
	const struct cyclic_params *p = arg;
	struct cyclic_result r;

	/* As bench says: the image cannot tell QEMU from a board. */
	printf("cyclic: times from the %lu Hz counter: exact on a board and under "
	       "QEMU_ICOUNT=1 make shell; host-paced (noise) under plain QEMU\n",
	       (unsigned long)clock_hz());
	cyclic_print_params(p);
	if (cyclic_run(p, &r)) {
		cyclic_hist_print(&r);
		cyclic_load_report();
	}
	return SHELL_OK;
}

int cmd_cyclic(int argc, char **argv)
{
	struct cyclic_params p = {
		.periods = CONFIG_CYCLIC_PERIODS,
		.period_us = CONFIG_CYCLIC_PERIOD_US,
		.load = CONFIG_CYCLIC_LOAD,
	};
	unsigned long v;

	if (argc > 4)
		return SHELL_USAGE;
	if (argc > 1) {
		if (!shell_parse_ulong(argv[1], 1, CYCLIC_PERIODS_MAX, &v))
			return SHELL_USAGE;
		p.periods = (unsigned int)v;
	}
	if (argc > 2) {
		if (!shell_parse_ulong(argv[2], CYCLIC_PERIOD_US_MIN, CYCLIC_PERIOD_US_MAX, &v))
			return SHELL_USAGE;
		p.period_us = (unsigned int)v;
	}
	if (argc > 3) {
		if (!shell_parse_ulong(argv[3], 0, (1u << NR_LOAD_PARTS) - 1, &v))
			return SHELL_USAGE;
		p.load = (unsigned int)v;
	}
	/* Ctrl-C ends the run early; the figures so far are printed. */
	return shell_run_job(cyclic_job, &p, &cyclic_stop);
}
