/* help [CMD] */
#include <stdio.h>
#include "shell.h"

static void describe(const struct shell_cmd *c)
{
	printf("  %-7s %-24s %s\n", c->name, c->usage, c->help);
}

int cmd_help(int argc, char **argv)
{
	const struct shell_cmd *c;

	if (argc > 2)
		return SHELL_USAGE;
	if (argc == 2) {
		c = shell_find(argv[1]);
		if (!c) {
			printf("help: unknown command '%s'\n", argv[1]);
			return SHELL_OK;
		}
		describe(c);
		return SHELL_OK;
	}
	for (c = shell_cmds; c->name; c++)
		describe(c);
	printf("keys: Backspace, Ctrl-U erase line, Ctrl-C abandon line or stop a command, "
	       "Up/Down history (%d lines)\n", SHELL_HISTORY);
	return SHELL_OK;
}
