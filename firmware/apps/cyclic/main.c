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

	_Static_assert(CONFIG_CYCLIC_PERIODS <= CYCLIC_PERIODS_MAX &&
		       CONFIG_CYCLIC_PERIOD_US >= CYCLIC_PERIOD_US_MIN &&
		       CONFIG_CYCLIC_PERIOD_US <= CYCLIC_PERIOD_US_MAX &&
		       CONFIG_CYCLIC_LOAD < 1u << NR_LOAD_PARTS, "config.table's CYCLIC_* ranges and cyclic.h's differ");
	cyclic_print_params(&p);
	if (!cyclic_run(&p, &r))
		return 1;
	cyclic_hist_print(&r);
	cyclic_load_report();
	return 0;
}
