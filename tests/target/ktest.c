/* The on-target harness (see ktest.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <lokal/app.h>
#include <lokal/platform.h>
#include <lokal/thread.h>
#include "ktest.h"

static bool case_failed;

void ktest_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	case_failed = true;
	printf("# FAILED at %s:%d: ", file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

int ktest_run(const struct ktest *tests, int n)
{
	int failures = 0;

	printf("1..%d\n", n);
	for (int i = 0; i < n; i++) {
		case_failed = false;
		tests[i].fn();
		printf("%s %d - %s\n", case_failed ? "not ok" : "ok", i + 1, tests[i].name);
		failures += case_failed;
	}
	return failures;
}

int ktest_pick_case(const char *cases)
{
	for (int waited = 0; waited < 1000; waited++) {
		int c = console_getc();

		if (c > 0 && strchr(cases, c))
			return c;
		if (c < 0)
			sleep_ms(10);
	}
	return -1;
}
