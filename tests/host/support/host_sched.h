/*
 * mm's host tests on the real scheduler (firmware/kernel, arch/sim's
 * ucontext switch), as tests/host/sched runs it: one implementation of
 * threads, wait queues and the context switch for every host test.
 */
#ifndef HOST_SCHED_H
#define HOST_SCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <lokal/sched.h>
#include <lokal/thread.h>
#include <lokal/mutex.h>
#include "sched_host.h"

/* Priority of the thread the tests run in (as apps' main on target). */
#define HOST_PRIO_MAIN 16

struct CMUnitTest;

/*
 * Run boot_tests on the boot thread before the scheduler starts (for what
 * must happen with no other thread), then start the scheduler and run
 * tests in a "main" thread while the boot thread idles and ticks. Returns
 * the number of failed tests.
 */
int host_run_groups(const char *name, const struct CMUnitTest *boot_tests, size_t nboot,
		    const struct CMUnitTest *tests, size_t ntests);
#define HOST_RUN(name, boot, tests) \
	host_run_groups(name, boot, sizeof(boot) / sizeof((boot)[0]), \
			tests, sizeof(tests) / sizeof((tests)[0]))

/* A thread for a test (never NULL). */
struct thread *host_spawn(const char *name, void (*fn)(void *), void *arg, int prio);
/*
 * The same, not started: thread_create() may sleep, so a test that starts
 * several threads at once spawns them suspended and resumes them with
 * preemption off.
 */
struct thread *host_spawn_suspended(const char *name, void (*fn)(void *), void *arg, int prio);

/*
 * Checks made in threads other than the one cmocka runs in: cmocka cannot
 * fail from another stack, so the first failure is kept and the test's
 * teardown reports it.
 */
void host_expect_failed(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
#define HOST_EXPECT(cond) \
	do { if (!(cond)) host_expect_failed(__FILE__, __LINE__, "%s", #cond); } while (0)
/* The first failed HOST_EXPECT since the last call, or NULL; forgets it. */
const char *host_expectations(void);

#endif
