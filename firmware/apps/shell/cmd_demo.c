/* demo: the `make run` demo, in the main thread. */
#include <stdio.h>
#include <lokal/thread.h>
#include "shell.h"

/* firmware/apps/demo/demo.c's app_main, renamed by the shell image's build. */
int shell_demo_main(void);
/* What the demo's switch figures are relative to (firmware/apps/demo/demo.c). */
extern struct sched_stats demo_stats_base;

static int demo_job(void *arg)
{
	int status;

	(void)arg;
	/* Earlier commands (a bench) switched too: the demo counts its own run. */
	sched_get_stats(&demo_stats_base);
	status = shell_demo_main();
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
