/*
 * Shared by the host tests: a fresh machine per test, and helpers to run
 * code expected to panic or abort and to check what it printed.
 */
#ifndef HOST_TEST_H
#define HOST_TEST_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <lokal/highmem.h>
#include <lokal/mm.h>
#include <lokal/preempt.h>
#include <asm/sim.h>
#include "host_sched.h"

/* Lowmem below this is "the kernel image": reserved, as on target. */
#define HOST_FIRST_FREE  0x00100000u

/*
 * A fresh machine for each test, run in the current thread (the boot
 * thread, or "main" once the scheduler runs): a test that ended in a
 * panic may have left maps, counts or a disabled interrupt behind.
 */
static inline int host_setup(void **state)
{
	(void)state;
	memset(&current->kmap_ctrl, 0, sizeof(current->kmap_ctrl));
	current->pagefault_disabled = 0;
	__preempt_count = scheduler_running() ? 0 : 1;   /* boot is atomic */
	clear_need_resched();
	sim_reset();
	mm_init(HOST_FIRST_FREE);
	return 0;
}

/* Every test ends with the model satisfied, unless it cleared the count itself. */
static inline int host_teardown(void **state)
{
	const char *other = host_expectations();

	(void)state;
	if (other)
		fail_msg("%s", other);
	if (sim_violations(SIM_NR_VIOLATIONS))
		fail_msg("model violation(s): %u, last: %s", sim_violations(SIM_NR_VIOLATIONS),
			 sim_last_violation());
	return 0;
}

#define HOST_TEST(fn) cmocka_unit_test_setup_teardown(fn, host_setup, host_teardown)
/*
 * One case of a parametric test, under its own name: fn finds arg (an
 * integer or enum) in *state, so cases of one shape need no wrapper each.
 */
#define HOST_TEST_CASE(name, fn, arg) \
	{ #name, fn, host_setup, host_teardown, (void *)(uintptr_t)(arg) }

/* Run fn, which must halt with status; its output must contain every needle. */
static inline void host_expect_halt_msg(void (*fn)(void *), void *arg, int status,
					const char *const needles[])
{
	static char out[8192];
	int got = sim_expect_halt(fn, arg, out, sizeof(out));

	if (got != status)
		fail_msg("expected halt status %d, got %d; output:\n%s", status, got, out);
	for (; *needles; needles++)
		if (!strstr(out, *needles))
			fail_msg("diagnostic lacks \"%s\"; output:\n%s", *needles, out);
}

#define EXPECT_PANIC(fn, arg, ...) \
	host_expect_halt_msg(fn, arg, 3, (const char *const[]){ __VA_ARGS__, NULL })
#define EXPECT_ABORT(fn, arg, ...) \
	host_expect_halt_msg(fn, arg, SIM_FAULT_EXIT_STATUS, (const char *const[]){ __VA_ARGS__, NULL })

static inline struct page *host_alloc(enum zone_type z)
{
	struct page *p = alloc_page(z);

	assert_non_null(p);
	return p;
}

/* The physical address of a page, for sim_phys(). */
static inline phys_addr_t host_pa(const struct page *p)
{
	return (phys_addr_t)page_to_pfn(p) << PAGE_SHIFT;
}

/* Write s at va as dirty lines: the D-cache allocates on reads only, so read first. */
static inline void host_dirty(char *va, const char *s)
{
	(void)*(volatile char *)va;
	strcpy(va, s);
}

/* True if RAM itself (behind the cache) holds s at the start of page p. */
static inline bool host_ram_holds(const struct page *p, const char *s)
{
	return strcmp((const char *)sim_phys(host_pa(p)), s) == 0;
}

static inline void host_hex(char *buf, size_t len, const char *fmt, unsigned long v)
{
	snprintf(buf, len, fmt, v);
}

#endif
