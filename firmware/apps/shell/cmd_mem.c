/* mem: zones, heap, stacks. */
#include <stdio.h>
#include <malloc.h>
#include <lokal/mm.h>
#include <lokal/sysinfo.h>
#include "shell.h"


int cmd_mem(int argc, char **argv)
{
	static const char *const zone_names[MAX_NR_ZONES] = { "lowmem", "highmem" };
	struct mallinfo mi = mallinfo();
	struct thread_info *threads;
	unsigned int n;

	(void)argv;
	if (argc != 1)
		return SHELL_USAGE;
	for (int z = 0; z < MAX_NR_ZONES; z++)
		printf("zone %-8s %7lu pages, %7lu free\n", zone_names[z],
		       nr_managed_pages((enum zone_type)z), nr_free_pages((enum zone_type)z));
	printf("heap: %lu bytes in use, %lu bytes obtained from sbrk\n",
	       (unsigned long)mi.uordblks, (unsigned long)mi.arena);
	n = shell_threads(&threads);
	printf("stacks (high-water / size):\n");
	for (unsigned int i = 0; i < n && i < SHELL_MAX_THREADS; i++) {
		if (threads[i].stack_size)
			printf("  %-15s %5lu/%-5lu\n", threads[i].name,
			       (unsigned long)threads[i].stack_used,
			       (unsigned long)threads[i].stack_size);
		else
			printf("  %-15s boot stack\n", threads[i].name);
	}
	return SHELL_OK;
}
