/* uptime, reset, exit. */
#include <stdio.h>
#include <lokal/platform.h>
#include <lokal/thread.h>
#include <generated/config.h>
#include "shell.h"

int cmd_uptime(int argc, char **argv)
{
	uint64_t j = jiffies_read();

	(void)argv;
	if (argc != 1)
		return SHELL_USAGE;
	printf("up %lu.%02lu s (%lu ticks at %d Hz)\n", (unsigned long)(j / CONFIG_HZ),
	       (unsigned long)(j % CONFIG_HZ * 100 / CONFIG_HZ), (unsigned long)j, CONFIG_HZ);
	return SHELL_OK;
}

int cmd_reset(int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return SHELL_USAGE;
	printf("reset\n");
	fflush(stdout);
	machine_reset();
	printf("reset: this board cannot reset itself\n");
	return SHELL_OK;
}

int cmd_exit(int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return SHELL_USAGE;
	printf("exit\n");
	machine_halt(0);
}
