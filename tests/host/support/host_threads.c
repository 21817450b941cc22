/*
 * The host tests' runner on the real scheduler (see host_sched.h): boot,
 * a "main" thread for cmocka, an idle loop that advances time, and the
 * record of checks that failed in other threads.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <setjmp.h>
#include <cmocka.h>
#include <lokal/mm.h>
#include <lokal/platform.h>
#include <lokal/sched-internal.h>
#include <asm/sim.h>
#include "host_sched.h"
#include "host_test.h"

static const char *group_name;
static const struct CMUnitTest *group_tests;
static size_t group_count;
static int failures;
static volatile bool tests_done;

static char first_failure[512];

void host_expect_failed(const char *file, int line, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	if (first_failure[0])
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	snprintf(first_failure, sizeof(first_failure), "%s:%d (thread '%s'): %s", file, line,
		 current->name, what);
}

const char *host_expectations(void)
{
	static char copy[sizeof(first_failure)];

	if (!first_failure[0])
		return NULL;
	snprintf(copy, sizeof(copy), "%s", first_failure);
	first_failure[0] = '\0';
	return copy;
}

static struct thread *never_null(struct thread *t, const char *name)
{
	if (!t) {
		fprintf(stderr, "host: cannot create thread '%s'\n", name);
		abort();
	}
	return t;
}

struct thread *host_spawn(const char *name, void (*fn)(void *), void *arg, int prio)
{
	return never_null(thread_create(name, fn, arg, prio, HOST_STACK), name);
}

struct thread *host_spawn_suspended(const char *name, void (*fn)(void *), void *arg, int prio)
{
	return never_null(thread_create_suspended(name, fn, arg, prio, HOST_STACK), name);
}

static void test_main(void *arg)
{
	(void)arg;
	sim_install_fault_handler();
	failures += _cmocka_run_group_tests(group_name, group_tests, group_count, NULL, NULL);
	tests_done = true;
	for (;;)
		sleep_ticks(1000);      /* parked; the idle loop ends the process */
}

int host_run_groups(const char *name, const struct CMUnitTest *boot_tests, size_t nboot,
		    const struct CMUnitTest *tests, size_t ntests)
{
	char boot_name[64];

	/* HOST_TEST_FILTER=pattern runs only the matching tests (a test that halts ends the run). */
	if (getenv("HOST_TEST_FILTER"))
		cmocka_set_test_filter(getenv("HOST_TEST_FILTER"));
	sim_reset();
	mm_init(HOST_FIRST_FREE);
	sched_init();
	if (nboot) {
		snprintf(boot_name, sizeof(boot_name), "%s (before the scheduler)", name);
		failures += _cmocka_run_group_tests(boot_name, boot_tests, nboot, NULL, NULL);
	}
	group_name = name;
	group_tests = tests;
	group_count = ntests;
	host_spawn("main", test_main, NULL, HOST_PRIO_MAIN);
	sched_begin();
	/* Idle: time passes only while nothing else can run, as on target. */
	while (!tests_done)
		host_tick();
	return failures;
}
