/* One buffer for thread snapshots: too big for the shell's stack. */
#include <lokal/sysinfo.h>
#include "shell.h"

static struct thread_info snapshot[SHELL_MAX_THREADS];

unsigned int shell_threads(struct thread_info **out)
{
	*out = snapshot;
	return thread_snapshot(snapshot, SHELL_MAX_THREADS);
}
