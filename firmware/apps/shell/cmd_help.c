/* help [CMD] */
#include <stdio.h>
#include <string.h>
#include "shell.h"

/* Columns as wide as the table's widest name and usage: no row shifts. */
static void describe(const struct shell_cmd *c)
{
	int name_w = 0, usage_w = 0, n;

	for (const struct shell_cmd *t = shell_cmds; t->name; t++) {
		n = (int)strlen(t->name);
		name_w = n > name_w ? n : name_w;
		n = (int)strlen(t->usage);
		usage_w = n > usage_w ? n : usage_w;
	}
	printf("  %-*s %-*s %s\n", name_w, c->name, usage_w, c->usage, c->help);
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
