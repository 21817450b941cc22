/*
 * Event flags on the real scheduler: any and all, clear on exit, several
 * waiters served in order by one set (a clearing waiter takes its flags
 * from those after it), sets from an IRQ.
 */
#include <stdio.h>
#include "host_test.h"
#include <lokal/event_flags.h>
#include <lokal/platform.h>
#include <asm/irqflags.h>

static struct event_flags ev;

struct w {
	uint32_t mask;
	unsigned int mode;
	uint32_t got;
	int result;
};

static void ev_waiter(void *arg)
{
	struct w *w = arg;

	w->result = event_flags_wait(&ev, w->mask, w->mode, &w->got, MAX_SCHEDULE_TIMEOUT);
}

static void any_and_all(void **state)
{
	uint32_t got;

	(void)state;
	event_flags_init(&ev);
	event_flags_set(&ev, 0x5);
	assert_int_equal(event_flags_wait(&ev, 0x6, EF_ANY, &got, 0), 0);
	assert_int_equal(got, 0x5);
	assert_int_equal(event_flags_wait(&ev, 0x6, EF_ALL, &got, 0), -EAGAIN);
	assert_int_equal(got, 0);
	assert_int_equal(event_flags_wait(&ev, 0x5, EF_ALL | EF_CLEAR, &got, 0), 0);
	assert_int_equal(event_flags_get(&ev), 0);
	event_flags_set(&ev, 0xf0);
	event_flags_clear(&ev, 0x30);
	assert_int_equal(event_flags_get(&ev), 0xc0);
}

static void one_set_serves_waiters_in_order(void **state)
{
	struct w w[4] = {
		{ 0x1, EF_ANY, 0, 1 },                  /* satisfied, no clear */
		{ 0x3, EF_ALL | EF_CLEAR, 0, 1 },       /* satisfied, clears 0x3 */
		{ 0x2, EF_ANY, 0, 1 },                  /* 0x2 gone: still waits */
		{ 0x4, EF_ANY | EF_CLEAR, 0, 1 },       /* satisfied, clears 0x4 */
	};
	struct thread *t[4];

	(void)state;
	event_flags_init(&ev);
	for (int i = 0; i < 4; i++)
		t[i] = host_spawn("ev", ev_waiter, &w[i], HOST_PRIO_MAIN + 1);
	event_flags_set(&ev, 0x7);
	assert_int_equal(w[0].result, 0);
	assert_int_equal(w[0].got, 0x7);
	assert_int_equal(w[1].result, 0);
	assert_int_equal(w[1].got, 0x7);
	assert_int_equal(w[2].result, 1);
	assert_int_equal(w[3].result, 0);
	assert_int_equal(w[3].got, 0x4);
	assert_int_equal(event_flags_get(&ev), 0);
	/* The last one, from an IRQ. */
	{
		unsigned long flags = arch_local_irq_save();

		irq_enter();
		event_flags_set(&ev, 0x2);
		irq_exit();
		arch_local_irq_restore(flags);
	}
	assert_int_equal(w[2].result, 0);
	assert_int_equal(w[2].got, 0x2);
	for (int i = 0; i < 4; i++)
		thread_join(t[i]);
}

static void do_empty_mask(void *arg)
{
	(void)arg;
	event_flags_wait(&ev, 0, EF_ANY, NULL, 0);
}

static void empty_mask_is_reported(void **state)
{
	(void)state;
	event_flags_init(&ev);
	EXPECT_PANIC(do_empty_mask, NULL, "event_flags_wait(", "thread 'main'", "empty mask");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(any_and_all),
		HOST_TEST(one_set_serves_waiters_in_order),
		HOST_TEST(empty_mask_is_reported),
	};

	return host_run_groups("event_flags", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
