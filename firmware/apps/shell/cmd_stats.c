/* stats [reset]: scheduler and console counters, relative to a baseline. */
#include <stdio.h>
#include <string.h>
#include <lokal/thread.h>
#include <lokal/platform.h>
#include "shell.h"

/* The kernel's counters only grow; "reset" moves the baseline instead. */
static struct sched_stats base;
static struct console_rx_stats rx_base;
static unsigned long ignored_base;

void shell_stats_init(void)
{
	memset(&base, 0, sizeof(base));
	memset(&rx_base, 0, sizeof(rx_base));
	ignored_base = 0;
}

int cmd_stats(int argc, char **argv)
{
	struct sched_stats st;
	struct console_rx_stats rx;

	sched_get_stats(&st);
	console_rx_get_stats(&rx);
	if (argc == 2 && !strcmp(argv[1], "reset")) {
		base = st;
		rx_base = rx;
		ignored_base = shell_ignored_bytes();
		printf("stats: counters reset\n");
		return SHELL_OK;
	}
	if (argc != 1)
		return SHELL_USAGE;
	printf("switches              %10lu\n", st.switches - base.switches);
	printf("preemptions           %10lu\n", st.preemptions - base.preemptions);
	printf("kmap switches         %10lu\n", st.kmap_switches - base.kmap_switches);
	printf("maps restored         %10lu\n", st.kmaps_restored - base.kmaps_restored);
	printf("IRQs in kmap switch   %10lu\n", st.irqs_in_kmap_switch - base.irqs_in_kmap_switch);
	printf("console rx bytes      %10lu\n", rx.received - rx_base.received);
	printf("console rx dropped    %10lu (receive ring full)\n", rx.ring_dropped - rx_base.ring_dropped);
	printf("console rx overruns   %10lu (UART FIFO)\n", rx.uart_overruns - rx_base.uart_overruns);
	printf("input ignored         %10lu (typed while a command ran)\n",
	       shell_ignored_bytes() - ignored_base);
	return SHELL_OK;
}
