/*
 * The cyclic image (`make cyclic`): one run with the CYCLIC_* parameters
 * of config.table, its histogram, maxima and what the load did.
 */
#include <stdio.h>
#include <lokal/app.h>
#include <lokal/platform.h>
#include "cyclic.h"

int app_main(void)
{
	struct cyclic_params p = {
		.periods = CONFIG_CYCLIC_PERIODS,
		.period_us = CONFIG_CYCLIC_PERIOD_US,
		.load = CONFIG_CYCLIC_LOAD,
	};
	struct cyclic_result r;

	printf("cyclic: %u periods of %u us (armed %u..%u us ahead), KMAP_DEFER=%d, HZ=%d, load:",
	       p.periods, p.period_us, p.period_us, p.period_us + p.period_us / 2,
	       CONFIG_KMAP_DEFER, CONFIG_HZ);
	for (unsigned int i = 0; i < NR_LOAD_PARTS; i++)
		if (p.load & 1u << i)
			printf(" %s", cyclic_load_names[i]);
	printf("%s\n", p.load ? "" : " none");
	if (!cyclic_run(&p, &r))
		return 1;
	hist_print(&r);
	load_report();
	return 0;
}
