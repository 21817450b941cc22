/*
 * The host IRQ sweep: a scenario is run once without an interrupt, counting
 * every point where one could land (interrupts on: each unmask, each
 * preempt_enable() that ends the last atomic section, and each step of a
 * cache flush, PTE write and TLB invalidate in arch/sim), then once per
 * point k and per action, with that action fired as an interrupt at
 * point k. The points are found by the harness, never named by a scenario.
 *
 * Every run is a forked child of the test, so a lost thread, a panic, a
 * hang or a module's static state (the timer thread) ends with its run.
 * After each run the child checks what the scenario checks (its data),
 * the cache model's reports and the scheduler's invariants: every ready
 * thread is on its ready queue with its bitmap bit, every queued thread
 * is ready and not suspended, and sched_check_invariants() holds.
 */
#ifndef IRQ_SWEEP_H
#define IRQ_SWEEP_H

#include <stdbool.h>

/* An interrupt handler's body, fired at one landing point (in IRQ context). */
struct sweep_action {
	const char *name;
	void (*fire)(void);
};

struct sweep_scenario {
	const char *name;
	/* Runs in the test's thread, in a fresh machine; checks with sweep_fail(). */
	void (*body)(void);
	const struct sweep_action *actions;
	unsigned int nactions;
	/* Checks made after body, at the end of every run (NULL: none). */
	void (*check)(void);
};

/* What one scenario's sweep found. */
struct sweep_result {
	unsigned int points;            /* landing points of the run without interrupt */
	unsigned int runs;              /* runs made, that one included */
	unsigned int reports;           /* failing runs */
	char first[2048];               /* the first failing run and its output */
};

/*
 * Sweep s: the run without interrupt, then every action at every stride-th
 * point (1: every point), up to max_reports failing runs. Returns the
 * number of failing runs.
 */
unsigned int sweep_scenario(const struct sweep_scenario *s, unsigned int max_reports,
			    unsigned int stride, struct sweep_result *res);

/* In a run: this run fails, with why (printed with the thread and the run's point). */
void sweep_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Inside an action: true once the action has run in this run. */
extern bool sweep_fired;
/* The scheduler's invariants, now (interrupts may be on or off); sweep_fail()s what is broken. */
void sweep_check_sched(void);

#endif
