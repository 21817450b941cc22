/* kmaps: who holds which local kmap slot, and how full the pkmap pool is. */
#include <stdio.h>
#include <lokal/sysinfo.h>
#include "shell.h"


int cmd_kmaps(int argc, char **argv)
{
	struct pkmap_info pk;
	struct thread_info *threads;
	unsigned int n, shown;

	(void)argv;
	if (argc != 1)
		return SHELL_USAGE;
	n = shell_threads(&threads);
	shown = n < SHELL_MAX_THREADS ? n : SHELL_MAX_THREADS;
	printf("  %-15s %5s %5s %-10s %s\n", "THREAD", "DEPTH", "SLOT", "VA", "PFN");
	for (unsigned int i = 0; i < shown; i++) {
		const struct thread_info *t = &threads[i];

		printf("  %-15s %5u", t->name, t->kmaps);
		if (!t->kmaps)
			printf("     -\n");
		for (unsigned int k = 0; k < t->kmaps; k++)
			printf("%s %5u 0x%08lx 0x%lx\n", k ? "                      " : "",
			       t->kmap[k].slot, t->kmap[k].vaddr, t->kmap[k].pfn);
	}
	if (n > shown)
		printf("  (%u more threads not shown)\n", n - shown);
	pkmap_get_info(&pk);
	printf("pkmap: %u slots: %u used, %u count-1 (awaiting flush), %u free; %u waiters\n",
	       pk.slots, pk.in_use, pk.awaiting_flush, pk.free, pk.waiters);
	return SHELL_OK;
}
