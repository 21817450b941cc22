/*
 * Unit tests of irqsoff.c: window lengths counted from the masking
 * instruction to the unmasking one, both included; the boot stretch kept
 * apart; a window that runs on through an exception and a context switch;
 * handler windows per vector and IRQ line; the per-site ranking; the
 * preemption-off windows and who opened them; the cycle estimate.
 * TAP on stdout (tests/lib/tap.h), exit status 1 on any failure.
 */
#include <string.h>
#include "tap.h"
#include "../cpu/irqsoff.h"

/* The results below, all of them unconditional: raise it with each new one. */
#define RESULTS	14

static const struct iw_cost zero;

static void ok(bool cond, const char *what)
{
	tap_ok(cond, "irqsoff: %s", what);
}

static void test_boot_is_apart(void)
{
	struct irqsoff s;

	irqsoff_init(&s, true);
	irqsoff_psr_write(&s, 99, 0x1000, false, false, &zero);
	ok(s.boot.len == 100 && s.thread_max.len == 0 && s.thread_count == 0,
	   "reset to the first unmask is the boot window, not a thread window");
}

static void test_thread_window(void)
{
	struct irqsoff s;

	irqsoff_init(&s, false);
	irqsoff_psr_write(&s, 200, 0x2000, true, false, &zero);
	irqsoff_psr_write(&s, 205, 0x2010, true, false, &zero);	/* nested save: no change */
	irqsoff_psr_write(&s, 209, 0x2040, false, false, &zero);
	irqsoff_psr_write(&s, 300, 0x2050, false, false, &zero);	/* already on */
	ok(s.thread_max.len == 10 && s.thread_count == 1, "mask at 200, unmask at 209: 10 instructions");
	ok(s.thread_max.open_pc == 0x2000 && s.thread_max.close_pc == 0x2040,
	   "the window's opening and closing instructions are kept");
}

static void test_runs_through_exception(void)
{
	struct irqsoff s;

	irqsoff_init(&s, false);
	irqsoff_psr_write(&s, 10, 0x100, true, false, &zero);
	irqsoff_exception(&s, 20, 4, -1, &zero);			/* abort inside it */
	irqsoff_psr_write(&s, 30, 0x200, true, true, &zero);	/* its return, still masked */
	irqsoff_psr_write(&s, 49, 0x300, false, false, &zero);	/* in another thread */
	ok(s.thread_max.len == 40 && s.vec_count[4] == 0,
	   "an exception and a switch inside a thread window belong to it");
}

static void test_handler_windows(void)
{
	struct irqsoff s;

	irqsoff_init(&s, false);
	irqsoff_exception(&s, 100, 6, 4, &zero);
	irqsoff_psr_write(&s, 149, 0x400, false, true, &zero);	/* return to the thread */
	irqsoff_exception(&s, 200, 6, 4, &zero);
	irqsoff_psr_write(&s, 219, 0x500, false, false, &zero);	/* first unmask */
	irqsoff_exception(&s, 300, 6, 12, &zero);
	irqsoff_psr_write(&s, 304, 0x400, false, true, &zero);
	ok(s.line_max[4].len == 50 && s.line_count[4] == 2 && s.line_max[12].len == 5,
	   "handler windows per IRQ line: to the return or the first unmask");
	ok(s.vec_max[6].len == 50 && s.vec_count[6] == 3 && s.thread_count == 0,
	   "handler windows per vector, none counted as thread windows");
	irqsoff_exception(&s, 400, 6, 4, &zero);
	irqsoff_psr_write(&s, 409, 0x600, true, true, &zero);	/* returns masked */
	irqsoff_psr_write(&s, 419, 0x700, false, false, &zero);
	ok(s.thread_max.len == 11 && s.thread_max.open_pc == 0x600,
	   "a return into masked code closes the handler window and opens a thread one");
}

static void test_site_ranking(void)
{
	struct irqsoff s;
	const struct iw_site *a, *b, *c;

	irqsoff_init(&s, false);
	for (int i = 0; i < 3; i++) {
		uint64_t base = 1000u * (uint64_t)i;

		irqsoff_psr_write(&s, base, 0x10, true, false, &zero);
		irqsoff_psr_write(&s, base + 4, 0x14, false, false, &zero);
		irqsoff_psr_write(&s, base + 100, 0x20, true, false, &zero);
		irqsoff_psr_write(&s, base + 100 + 49 + (uint64_t)i, 0x24, false, false, &zero);
		irqsoff_psr_write(&s, base + 300, 0x30, true, false, &zero);
		irqsoff_psr_write(&s, base + 319, 0x34, false, false, &zero);
	}
	a = irqsoff_site_rank(&s, 0);
	b = irqsoff_site_rank(&s, 1);
	c = irqsoff_site_rank(&s, 2);
	ok(a && b && c && !irqsoff_site_rank(&s, 3) && a->max.open_pc == 0x20 && a->max.len == 52 &&
	   b->max.open_pc == 0x30 && c->max.open_pc == 0x10 && a->count == 3,
	   "sites ranked by their longest window, each counted");
}

static enum iw_who by_pc(void *ctx, uint32_t pc, uint32_t lr)
{
	(void)ctx; (void)lr;
	return pc >= 0x8000 ? IW_APP : IW_KERNEL;
}

static void test_preempt(void)
{
	struct irqsoff s;

	irqsoff_init(&s, true);
	s.classify = by_pc;
	irqsoff_preempt(&s, 5, 0x100, 0, 1, 2, &zero);		/* boot: atomic until the scheduler */
	irqsoff_preempt(&s, 50, 0x100, 0, 2, 0, &zero);
	ok(s.preempt_count[0] + s.preempt_count[1] == 0, "the boot thread's atomic stretch is no window");
	irqsoff_preempt(&s, 100, 0x200, 0x9000, 0, 1, &zero);
	irqsoff_preempt(&s, 110, 0x210, 0, 1, 0x10001, &zero);	/* hard IRQ inside: still 1 */
	irqsoff_preempt(&s, 120, 0x220, 0, 0x10001, 1, &zero);
	irqsoff_preempt(&s, 130, 0x230, 0, 1, 2, &zero);
	irqsoff_preempt(&s, 140, 0x240, 0, 2, 1, &zero);
	irqsoff_preempt(&s, 199, 0x250, 0, 1, 0, &zero);
	irqsoff_preempt(&s, 300, 0x210, 0, 0, 0x10000, &zero);	/* irq_enter alone */
	irqsoff_preempt(&s, 400, 0x210, 0, 0x10000, 0, &zero);
	irqsoff_preempt(&s, 500, 0x9000, 0, 0, 1, &zero);
	irqsoff_preempt(&s, 529, 0x9010, 0, 1, 0, &zero);
	ok(s.preempt_max[IW_KERNEL].len == 90 && s.preempt_count[IW_KERNEL] == 1 &&
	   s.preempt_max[IW_KERNEL].open_lr == 0x9000,
	   "a kernel preempt-off window: nesting and hard-IRQ bits do not end it, the hard IRQ's 10 are not its own");
	ok(s.preempt_max[IW_APP].len == 30 && s.preempt_count[IW_APP] == 1,
	   "an application's window is told apart by its opener");
}

static void test_thread_windows_by_opener(void)
{
	struct irqsoff s;

	irqsoff_init(&s, false);
	s.classify = by_pc;
	irqsoff_psr_write(&s, 0, 0x9000, true, false, &zero);	/* an application's, 300 */
	irqsoff_psr_write(&s, 299, 0x9004, false, false, &zero);
	irqsoff_psr_write(&s, 400, 0x100, true, false, &zero);	/* the kernel's, 50 */
	irqsoff_psr_write(&s, 449, 0x104, false, false, &zero);
	irqsoff_psr_write(&s, 500, 0x200, true, false, &zero);	/* the kernel's, 20: shorter */
	irqsoff_psr_write(&s, 519, 0x204, false, false, &zero);
	ok(s.thread_max.len == 300 && s.thread_max_by[IW_APP].len == 300 &&
	   s.thread_max_by[IW_KERNEL].len == 50 && s.thread_max_by[IW_KERNEL].open_pc == 0x100,
	   "thread windows kept by who opened them: the kernel or an application");
}

static void test_cycles(void)
{
	struct iw_costs c = { .insn = 1, .dfill = 28, .ifill = 28, .dwriteback = 16, .cp15 = 1, .walk = 28,
			      .drain = 16, .pipe = 1 };
	struct iw_window w = { .len = 100, .cost = { .dfills = 2, .ifills = 1, .dwritebacks = 3,
						     .cp15 = 4, .walks = 1, .drains = 1, .pipe = 37 } };

	ok(irqsoff_cycles(&c, &w) == 100 + 56 + 28 + 48 + 4 + 28 + 16 + 37,
	   "cycle estimate from the costs, the pipeline's own cycles included");
}

static void test_cost_delta(void)
{
	struct irqsoff s;
	struct iw_cost a = { .dfills = 5, .cp15 = 7, .pipe = 20 }, b = { .dfills = 9, .cp15 = 10, .pipe = 31 };

	irqsoff_init(&s, false);
	irqsoff_psr_write(&s, 0, 0x10, true, false, &a);
	irqsoff_psr_write(&s, 9, 0x14, false, false, &b);
	ok(s.thread_max.cost.dfills == 4 && s.thread_max.cost.cp15 == 3 && s.thread_max.cost.pipe == 11,
	   "a window is charged what the model and the pipeline counted inside it");
}

int main(void)
{
	tap_plan(RESULTS);
	test_boot_is_apart();
	test_thread_window();
	test_runs_through_exception();
	test_handler_windows();
	test_site_ranking();
	test_preempt();
	test_thread_windows_by_opener();
	test_cycles();
	test_cost_delta();
	return tap_done();
}
