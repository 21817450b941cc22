/* Long commands run in the main thread while the shell thread watches the keys. */
#include <stdio.h>
#include <lokal/mutex.h>
#include <lokal/thread.h>
#include "shell.h"

static struct semaphore job_ready, job_done;
static int (*job_fn)(void *arg);
static void *job_arg;
static int job_result;
static volatile bool job_running;

void shell_job_loop(void)
{
	/* The shell thread is less urgent: it first runs once this blocks. */
	sema_init(&job_ready, 0);
	sema_init(&job_done, 0);
	for (;;) {
		down(&job_ready);
		job_result = job_fn(job_arg);
		job_running = false;
		up(&job_done);
	}
}

int shell_run_job(int (*fn)(void *arg), void *arg, volatile bool *stop)
{
	bool stopped = false;

	job_fn = fn;
	job_arg = arg;
	if (stop)
		*stop = false;
	job_running = true;
	shell_track_ignored();
	fflush(stdout);
	up(&job_ready);
	/* No output from here while the job runs: newlib's stdout has no lock. */
	while (job_running) {
		if (!stopped && shell_key_pressed(false)) {
			stopped = true;
			if (stop)
				*stop = true;
		}
		sleep_ticks(1);
	}
	down(&job_done);
	if (stopped)
		printf(stop ? "^C: stopped\n" : "^C: this command cannot stop early\n");
	shell_report_ignored();
	return job_result;
}
