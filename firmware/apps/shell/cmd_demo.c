/* demo: the `make run` demo, in the main thread. */
#include <stdio.h>
#include <lokal/thread.h>
#include "shell.h"
#include "demo.h"

static int demo_job(void *arg)
{
	int status;

	(void)arg;
	/* Earlier commands (a bench) switched too: the demo counts its own run. */
	sched_get_stats(&demo_stats_base);
	status = demo_run();
	printf("demo: exit status %d\n", status);
	return SHELL_OK;
}

int cmd_demo(int argc, char **argv)
{
	static bool ran;

	(void)argv;
	if (argc != 1)
		return SHELL_USAGE;
	if (ran) {
		/* It keeps every highmem page it filled: a second run finds none. */
		printf("demo: already ran since boot; 'reset' to run it again\n");
		return SHELL_OK;
	}
	ran = true;
	return shell_run_job(demo_job, NULL, NULL);
}
