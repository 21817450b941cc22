/* trace start|stop|dump: the switch trace, dumped as VCD for tools/latency. */
#include <stdio.h>
#include <string.h>
#include <lokal/trace.h>
#include "shell.h"

/* A dump of a full buffer takes minutes at 115200 baud: Ctrl-C ends it. */
static bool ctrl_c_pressed(void)
{
	return shell_key_pressed(false);
}

int cmd_trace(int argc, char **argv)
{
	bool overflowed;
	unsigned int n, done;

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
		n = trace_count(&overflowed);
		if (!n) {
			printf("trace: empty; 'trace start', then 'trace stop'\n");
			return SHELL_OK;
		}
		shell_track_ignored();
		done = trace_dump_vcd_until("shell", ctrl_c_pressed);
		if (done < n)
			printf("^C: trace dump stopped after %u of %u events\n", done, n);
		shell_report_ignored();
	} else {
		return SHELL_USAGE;
	}
	return SHELL_OK;
}
