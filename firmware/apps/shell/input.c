/* Console input for the shell: blocking reads, key polling, number parsing. */
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <lokal/platform.h>
#include <lokal/thread.h>
#include "shell.h"

static unsigned long ignored, ignored_mark;

int shell_getc(void)
{
	int c;

	/*
	 * Polling once a tick keeps the receive path free of any wake-up from
	 * the UART interrupt, so typing costs real-time threads only that
	 * interrupt. The ring holds well over a tick of input at 115200 baud.
	 */
	while ((c = console_getc()) < 0) {
		fflush(stdout);
		sleep_ticks(1);
	}
	return c;
}

bool shell_key_pressed(bool any_key)
{
	int c;

	while ((c = console_getc()) >= 0) {
		if (any_key || c == KEY_CTRL_C)
			return true;
		ignored++;
	}
	return false;
}

unsigned long shell_ignored_bytes(void)
{
	return ignored;
}

void shell_track_ignored(void)
{
	ignored_mark = ignored;
}

void shell_report_ignored(void)
{
	unsigned long n = ignored - ignored_mark;

	/* Typed-ahead text is not kept: a half-typed command could run by accident. */
	if (n)
		printf("(%lu byte%s typed while the command ran: ignored)\n", n, n == 1 ? "" : "s");
	ignored_mark = ignored;
}

bool shell_parse_ulong(const char *s, unsigned long min, unsigned long max,
		       unsigned long *out)
{
	char *end;
	unsigned long v;

	if (*s < '0' || *s > '9')       /* strtoul takes signs and spaces */
		return false;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}
