/* bench switch|kmap|wakeup [N]: the benchmarks of `make bench`, on the live system. */
#include <stdio.h>
#include <string.h>
#include <lokal/mm.h>
#include <lokal/platform.h>
#include <lokal/thread.h>
#include <generated/config.h>
#include "shell.h"
#include "bench.h"
#include "pages.h"

#define WAKES_DEFAULT   10000

/* Highmem pages the bench sets take at boot, before the demo can take them all. */
#define BENCH_HIGHMEM_PAGES     (BENCH_SETS * BENCH_PAGES)

static bool pages_ready;

void shell_bench_init(void)
{
	/* A build with too little highmem still boots: only bench is refused. */
	if (nr_free_pages(ZONE_HIGHMEM) < BENCH_HIGHMEM_PAGES)
		return;
	bench_pages_init();
	pages_ready = true;
}

struct bench_job {
	const char *what;
	unsigned long wakes;
};

static int bench_job(void *arg)
{
	const struct bench_job *job = arg;
	uint64_t start = jiffies_read();

	/*
	 * The image cannot tell QEMU from a board: say where figures are exact.
	 * Plain QEMU paces the counter by the host, so its figures are noise.
	 */
	printf("bench %s: times from the %lu Hz counter: exact on a board and under "
	       "QEMU_ICOUNT=1 make shell; host-paced (noise) under plain QEMU\n",
	       job->what, (unsigned long)clock_hz());
	printf("bench %s: KMAP_DEFER=%d, HZ=%d, counter %lu Hz\n", job->what,
	       CONFIG_KMAP_DEFER, CONFIG_HZ, (unsigned long)clock_hz());
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
		    !shell_parse_ulong(argv[2], 1, SHELL_WAKES_MAX, &job.wakes))
			return SHELL_USAGE;
	}
	if (!pages_ready) {
		printf("bench: needs %d free highmem pages at boot; this build has %lu "
		       "(RAM_MB=%d LOWMEM_MB=%d): give it more RAM_MB than LOWMEM_MB\n",
		       BENCH_HIGHMEM_PAGES, (unsigned long)nr_free_pages(ZONE_HIGHMEM),
		       CONFIG_RAM_MB, CONFIG_LOWMEM_MB);
		return SHELL_OK;
	}
	/* Ctrl-C ends a wake-up run early; switch and kmap take well under a second. */
	return shell_run_job(bench_job, &job, strcmp(job.what, "wakeup") ? NULL : &bench_stop);
}
