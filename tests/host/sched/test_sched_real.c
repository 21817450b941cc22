/*
 * The real firmware/kernel scheduler, run on the host with arch/sim's
 * ucontext switch and the VIVT cache/TLB model: ready queues, priorities,
 * time slices, sleeping, sync primitives, and the kmap teardown/restore on
 * every switch with zero model violations.
 *
 * The cmocka runner itself runs in a "main" thread (priority 16), as apps
 * do on target; the boot thread becomes idle and advances time with
 * simulated ticks whenever nothing else is ready. Only the main thread
 * asserts: other threads record what happened.
 *
 * The cases are in the sched_*.c files beside this one, a file per part
 * (sched_tests.h); this file holds the shared helpers and the runner.
 */
#include "sched_tests.h"

char log_buf[256];
int log_len;

void log_char(char c)
{
	if (log_len < (int)sizeof(log_buf) - 1)
		log_buf[log_len++] = c;
	log_buf[log_len] = 0;
}

void log_reset(void)
{
	log_len = 0;
	log_buf[0] = 0;
}

void note(void *arg)
{
	log_char((char)(intptr_t)arg);
}

struct thread *spawn(const char *name, void (*fn)(void *), void *arg, int prio)
{
	struct thread *t = thread_create(name, fn, arg, prio, HOST_STACK);

	assert_non_null(t);
	return t;
}

/*
 * Not started: thread_create() may sleep, so threads that must be queued
 * together are made first and resumed with preemption off.
 */
struct thread *spawn_suspended(const char *name, void (*fn)(void *), void *arg, int prio)
{
	struct thread *t = thread_create_suspended(name, fn, arg, prio, HOST_STACK);

	assert_non_null(t);
	return t;
}

static int failures = -1;
static volatile int tests_done;

static void test_main(void *arg)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(higher_priority_preempts_creator),
		cmocka_unit_test(yield_with_pagefaults_disabled_lets_the_peer_run),
		cmocka_unit_test(trace_records_every_threads_switches_until_stopped),
		cmocka_unit_test(equal_priorities_share_by_time_slice),
		cmocka_unit_test(time_slice_zero_keeps_the_cpu_until_done),
		cmocka_unit_test(time_slice_length_is_each_threads_own),
		cmocka_unit_test(preempted_thread_resumes_before_its_peers),
		cmocka_unit_test(sleepers_wake_in_tick_order),
		cmocka_unit_test(preempt_enable_runs_the_deferred_switch),
		cmocka_unit_test(mutex_goes_to_most_urgent_waiter),
		cmocka_unit_test(mutex_lends_priority_to_its_owner),
		cmocka_unit_test(switches_move_kmaps_coherently),
		cmocka_unit_test(new_threads_start_without_maps),
		cmocka_unit_test(wakeup_during_kmap_restore_runs_at_once),
		cmocka_unit_test(lost_races_in_a_row_do_not_grow_the_stack),
#if !CONFIG_KMAP_DEFER
		cmocka_unit_test(wakeup_in_switch_out_outranking_next_runs_first),
		cmocka_unit_test(wakeup_of_prev_in_switch_out_keeps_it_running),
		cmocka_unit_test(tick_in_switch_out_does_not_undo_a_yield),
		cmocka_unit_test(suspend_of_next_in_switch_out_holds),
#endif
		cmocka_unit_test(free_after_kmap_and_kunmap_releases_the_slot),
		cmocka_unit_test(wake_in_wait_gap_keeps_the_cpu),
		cmocka_unit_test(timeout_in_wait_gap_ends_the_wait),
		cmocka_unit_test(urgent_wake_in_wait_gap_runs_at_the_switch),
		cmocka_unit_test(irq_mapping_in_wait_gap_keeps_the_waiters_map),
#if CONFIG_DEBUG_HIGHMEM
		cmocka_unit_test(walk_moving_its_node_starts_the_queue_again),
		cmocka_unit_test(queue_without_its_bitmap_bit_panics),
		cmocka_unit_test(running_thread_on_a_queue_panics),
		cmocka_unit_test(urgent_ready_thread_without_need_resched_panics),
		cmocka_unit_test(ready_queue_not_of_its_priority_panics),
		cmocka_unit_test(ready_thread_unlinked_panics),
		cmocka_unit_test(ready_thread_on_a_wait_queue_panics),
		cmocka_unit_test(queued_thread_not_ready_panics),
		cmocka_unit_test(blocked_thread_unlinked_panics),
		cmocka_unit_test(running_thread_not_ready_panics),
		cmocka_unit_test(preempt_count_across_a_switch_panics),
#endif
	};

	(void)arg;
	sim_install_fault_handler();
	failures = cmocka_run_group_tests_name("sched_real", tests, NULL, NULL);
	tests_done = 1;
	for (;;)
		sleep_ticks(1000);      /* parked; the idle loop ends the process */
}

int main(void)
{
	sim_reset();
	mm_init(0x00100000u);
	sched_init();
	if (!thread_create("main", test_main, NULL, PRIO_TEST, HOST_STACK))
		return 2;
	sched_begin();
	/* Idle: time passes only while nothing else can run, as on target. */
	while (!tests_done)
		host_tick();
	return failures;
}
