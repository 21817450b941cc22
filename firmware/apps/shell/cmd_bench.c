/* bench switch|kmap|wakeup [N]: the benchmarks of `make bench`, on the live system. */
#include <stdio.h>
#include <string.h>
#include <lokal/platform.h>
#include <lokal/thread.h>
#include <generated/config.h>
#include "shell.h"
#include "../bench/bench.h"

#define WAKES_DEFAULT   10000
#define WAKES_MAX       100000

struct bench_job {
	const char *what;
	unsigned long wakes;
};

static int bench_job(void *arg)
{
	const struct bench_job *job = arg;
	uint64_t start = jiffies_read();

	printf("bench %s: KMAP_LAZY=%d, HZ=%d, counter %lu Hz\n", job->what,
	       CONFIG_KMAP_LAZY, CONFIG_HZ, (unsigned long)clock_hz());
	if (!strcmp(job->what, "switch"))
		bench_switch();
	else if (!strcmp(job->what, "kmap"))
		bench_kmap();
	else
		bench_wakeup((unsigned int)job->wakes, false);
	printf("bench %s: done in %lu ms\n", job->what,
	       (unsigned long)((jiffies_read() - start) * 1000 / CONFIG_HZ));
	return SHELL_OK;
}

int cmd_bench(int argc, char **argv)
{
	struct bench_job job = { .wakes = WAKES_DEFAULT };

	if (argc < 2 || argc > 3)
		return SHELL_USAGE;
	job.what = argv[1];
	if (strcmp(job.what, "switch") && strcmp(job.what, "kmap") && strcmp(job.what, "wakeup"))
		return SHELL_USAGE;
	if (argc == 3) {
		if (strcmp(job.what, "wakeup") ||
		    !shell_parse_ulong(argv[2], 1, WAKES_MAX, &job.wakes))
			return SHELL_USAGE;
	}
	/* Ctrl-C ends a wake-up run early; switch and kmap take well under a second. */
	return shell_run_job(bench_job, &job, strcmp(job.what, "wakeup") ? NULL : &bench_stop);
}
