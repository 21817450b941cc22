/*
 * The host C unit tests' TAP writer (tap.sh is the shell runners', tap.py
 * the Python ones'): numbered "ok N - name" / "not ok N - name" lines on
 * stdout after a plan, and an exit status that fails the run unless it
 * reported as many results as it planned, at least one, all passing.
 *
 *   tap_plan(N);                        before the first result
 *   tap_ok(cond, "name %s", ...);       one result; returns cond
 *   tap_diag("why %s", ...);            a "# " line, under a failure
 *   return tap_done();                  main's exit status
 *
 * A test that stops early, or gains a result without its plan being
 * raised, fails here and in the runner's plan check (tap_from).
 */
#ifndef LOKAL_TESTS_TAP_H
#define LOKAL_TESTS_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int tap_planned = -1, tap_ran, tap_failed;

static inline void tap_plan(int count)
{
	tap_planned = count;
	printf("1..%d\n", count);
}

__attribute__((format(printf, 2, 3)))
static inline bool tap_ok(bool cond, const char *fmt, ...)
{
	va_list ap;

	tap_ran++;
	if (!cond)
		tap_failed++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_ran);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	return cond;
}

__attribute__((format(printf, 1, 2)))
static inline void tap_diag(const char *fmt, ...)
{
	va_list ap;

	fputs("# ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* 0 when the plan was given, met, non-empty and every result passed. */
static inline int tap_done(void)
{
	bool good = tap_planned > 0 && tap_ran == tap_planned && !tap_failed;

	if (tap_planned < 0)
		tap_diag("no plan: tap_plan() was not called");
	else if (tap_ran != tap_planned)
		tap_diag("planned %d results, ran %d", tap_planned, tap_ran);
	else if (!tap_ran)
		tap_diag("reported no result");
	fflush(stdout);
	return good ? 0 : 1;
}

#endif
