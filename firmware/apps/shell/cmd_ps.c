/* ps: the kernel's thread table. */
#include <lokal/thread.h>
#include "shell.h"

int cmd_ps(int argc, char **argv)
{
	(void)argv;
	if (argc != 1)
		return SHELL_USAGE;
	thread_ps();
	return SHELL_OK;
}
