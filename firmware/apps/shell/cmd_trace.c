/* trace start|stop|dump: the switch trace, dumped as VCD for tools/latency. */
#include <stdio.h>
#include <string.h>
#include <lokal/trace.h>
#include "shell.h"

int cmd_trace(int argc, char **argv)
{
	bool overflowed;
	unsigned int n;

	if (argc != 2)
		return SHELL_USAGE;
	if (!strcmp(argv[1], "start")) {
		trace_start();
		printf("trace: recording (at most %u events)\n", TRACE_EVENTS);
	} else if (!strcmp(argv[1], "stop")) {
		trace_stop();
		n = trace_count(&overflowed);
		printf("trace: stopped, %u events%s\n", n, overflowed ? " (buffer full: later ones lost)" : "");
	} else if (!strcmp(argv[1], "dump")) {
		if (trace_active()) {
			printf("trace: still recording; 'trace stop' first\n");
			return SHELL_OK;
		}
		if (!trace_count(&overflowed)) {
			printf("trace: empty; 'trace start', then 'trace stop'\n");
			return SHELL_OK;
		}
		trace_dump_vcd("shell");
	} else {
		return SHELL_USAGE;
	}
	return SHELL_OK;
}
