/* The command table: adding a command is a function in its own file and a line here. */
#include <string.h>
#include "shell.h"

int cmd_help(int argc, char **argv);
int cmd_ps(int argc, char **argv);
int cmd_kmaps(int argc, char **argv);
int cmd_mem(int argc, char **argv);
int cmd_stats(int argc, char **argv);
int cmd_bench(int argc, char **argv);
int cmd_cyclic(int argc, char **argv);
int cmd_marker(int argc, char **argv);
int cmd_trace(int argc, char **argv);
int cmd_demo(int argc, char **argv);
int cmd_uptime(int argc, char **argv);
int cmd_reset(int argc, char **argv);
int cmd_exit(int argc, char **argv);

const struct shell_cmd shell_cmds[] = {
	{ "help",   "[CMD]",                   "list the commands, or describe one", cmd_help },
	{ "ps",     "",                        "the thread table", cmd_ps },
	{ "kmaps",  "",                        "each thread's local kmaps (slot, VA, pfn), then the pkmap pool", cmd_kmaps },
	{ "mem",    "",                        "zones and free pages, heap in use, stack high-water marks", cmd_mem },
	{ "stats",  "[reset]",                 "scheduler and console counters since boot or the last reset", cmd_stats },
	{ "bench",  "switch|kmap|wakeup [1.." SHELL_STR(SHELL_WAKES_MAX) "]", "run a benchmark here (wakeup: N wake-ups per mode, default 10000)", cmd_bench },
	{ "cyclic", "[PERIODS [PERIOD_US [LOAD]]]", "timer-to-handler and timer-to-thread latency under load (docs/latency.md)", cmd_cyclic },
	{ "marker", "test [1.." SHELL_STR(SHELL_MARKER_HZ_MAX) " Hz]|on|off", "square wave on both marker pins until a key (default 1000 Hz), or switch marker on/off", cmd_marker },
	{ "trace",  "start|stop|dump",         "record context-switch edges; dump prints them as VCD for tools/latency", cmd_trace },
	{ "demo",   "",                        "run the demo (once per boot: it keeps every highmem page)", cmd_demo },
	{ "uptime", "",                        "time since boot", cmd_uptime },
	{ "reset",  "",                        "reset the board", cmd_reset },
	{ "exit",   "",                        "end the run with status 0 (QEMU exits)", cmd_exit },
	{ NULL, NULL, NULL, NULL },
};

const struct shell_cmd *shell_find(const char *name)
{
	for (const struct shell_cmd *c = shell_cmds; c->name; c++)
		if (!strcmp(c->name, name))
			return c;
	return NULL;
}
