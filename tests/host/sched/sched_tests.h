/*
 * test_sched_real's shared part: the includes, the helpers every part
 * uses, and each part's test cases (the list is in test_sched_real.c).
 */
#ifndef SCHED_TESTS_H
#define SCHED_TESTS_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include <lokal/thread.h>
#include <lokal/sched-internal.h>
#include <lokal/mutex.h>
#include <lokal/completion.h>
#include <lokal/preempt.h>
#include <lokal/highmem.h>
#include <lokal/highmem-internal.h>
#include <asm/irqflags.h>
#include <lokal/mm.h>
#include <asm/sim.h>
#include <lokal/platform.h>
#include <lokal/trace.h>
#include "sched_host.h"

#define PRIO_TEST 16

/* What the threads of a case did, as characters (only the main thread asserts). */
extern char log_buf[256];
extern int log_len;
void log_char(char c);
void log_reset(void);
/* A thread body that logs its argument's character. */
void note(void *arg);
/* thread_create(), asserted; the _suspended one not started (resume it with preemption off). */
struct thread *spawn(const char *name, void (*fn)(void *), void *arg, int prio);
struct thread *spawn_suspended(const char *name, void (*fn)(void *), void *arg, int prio);

/* The cases, by part. */
void higher_priority_preempts_creator(void **state);
void yield_with_pagefaults_disabled_lets_the_peer_run(void **state);
void trace_records_every_threads_switches_until_stopped(void **state);
void equal_priorities_share_by_time_slice(void **state);
void time_slice_zero_keeps_the_cpu_until_done(void **state);
void time_slice_length_is_each_threads_own(void **state);
void preempted_thread_resumes_before_its_peers(void **state);
void sleepers_wake_in_tick_order(void **state);
void preempt_enable_runs_the_deferred_switch(void **state);
void mutex_goes_to_most_urgent_waiter(void **state);
void mutex_lends_priority_to_its_owner(void **state);
void switches_move_kmaps_coherently(void **state);
void new_threads_start_without_maps(void **state);
void wakeup_during_kmap_restore_runs_at_once(void **state);
void lost_races_in_a_row_do_not_grow_the_stack(void **state);
void wakeup_in_switch_out_outranking_next_runs_first(void **state);
void wakeup_of_prev_in_switch_out_keeps_it_running(void **state);
void tick_in_switch_out_does_not_undo_a_yield(void **state);
void suspend_of_next_in_switch_out_holds(void **state);
void free_after_kmap_and_kunmap_releases_the_slot(void **state);
void wake_in_wait_gap_keeps_the_cpu(void **state);
void timeout_in_wait_gap_ends_the_wait(void **state);
void urgent_wake_in_wait_gap_runs_at_the_switch(void **state);
void irq_mapping_in_wait_gap_keeps_the_waiters_map(void **state);
void walk_moving_its_node_starts_the_queue_again(void **state);
void queue_without_its_bitmap_bit_panics(void **state);
void running_thread_on_a_queue_panics(void **state);
void urgent_ready_thread_without_need_resched_panics(void **state);
void ready_queue_not_of_its_priority_panics(void **state);
void ready_thread_unlinked_panics(void **state);
void ready_thread_on_a_wait_queue_panics(void **state);
void queued_thread_not_ready_panics(void **state);
void blocked_thread_unlinked_panics(void **state);
void running_thread_not_ready_panics(void **state);
void preempt_count_across_a_switch_panics(void **state);

#endif
