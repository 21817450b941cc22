/*
 * The shell image (`make shell`, and what `make load`/`make flash` put on
 * a board): boot, then a console shell. The main thread stays at
 * PRIO_MAIN and runs the long commands (bench, demo) so they see the same
 * priorities as in their own images; the shell thread sits just below it.
 */
#include <stdio.h>
#include <lokal/app.h>
#include <lokal/thread.h>
#include <lokal/bug.h>
#include "shell.h"

#define PRIO_SHELL      (PRIO_MAIN - 1)
#define SHELL_STACK     4096

static void shell_thread(void *arg);

int app_main(void)
{
	/* Before the demo can take every highmem page. */
	shell_bench_init();
	shell_stats_init();
	printf("shell: type 'demo' to run the demo, or 'help' for the commands\n");
	if (!thread_create("shell", shell_thread, NULL, PRIO_SHELL, SHELL_STACK)) {
		printf("shell: no memory for the shell thread\n");
		return 1;
	}
	shell_job_loop();
}

/* Split line into words in place; returns argc, or -1 if there are too many. */
static int split(char *line, char **argv)
{
	int argc = 0;
	char *p = line;

	for (;;) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			return argc;
		if (argc == SHELL_ARGS_MAX)
			return -1;
		argv[argc++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
}

static void run_line(char *line)
{
	char *argv[SHELL_ARGS_MAX + 1];
	const struct shell_cmd *cmd;
	int argc = split(line, argv);

	if (argc < 0) {
		printf("too many arguments (at most %d words)\n", SHELL_ARGS_MAX);
		return;
	}
	if (argc == 0)
		return;
	argv[argc] = NULL;
	cmd = shell_find(argv[0]);
	if (!cmd) {
		printf("unknown command '%s' (try help)\n", argv[0]);
		return;
	}
	if (cmd->run(argc, argv) == SHELL_USAGE)
		printf("usage: %s%s%s\n", cmd->name, cmd->usage[0] ? " " : "", cmd->usage);
}

static void shell_thread(void *arg)
{
	static char line[SHELL_LINE_MAX];

	(void)arg;
	for (;;) {
		fputs(SHELL_PROMPT, stdout);
		fflush(stdout);
		if (shell_readline(line) >= 0)
			run_line(line);
		fflush(stdout);
	}
}
