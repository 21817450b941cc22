/*
 * Interrupts-off and preemption-off windows, the bookkeeping side (no
 * Unicorn here, so tests/test_irqsoff.c drives it directly).
 *
 * Positions are instruction indices: the n-th instruction retired has
 * position n - 1.  A window's length counts the instruction that opened
 * it (the one that masked IRQs, or the first one of the exception vector)
 * through the one that closed it (the one that unmasked them, or the
 * exception return), both included.
 *
 *  - thread window: opened by an instruction that masks IRQs while they
 *    were enabled; it runs on across exceptions and context switches
 *    until an instruction unmasks them;
 *  - handler window: opened by an exception entry while IRQs were
 *    enabled; it ends at the exception return or at the first unmask;
 *  - boot: the stretch from reset to the first unmask, kept apart.
 * A preemption-off window runs from the store that raises the preempt
 * count's preemption bits from zero to the one that drops them back,
 * less the hard-IRQ stretches inside it (irq_enter() to irq_exit()).
 * Thread windows are also kept by who opened them (the classify callback):
 * the kernel, or an application masking IRQs itself.  A handler window's
 * kernel part is its length less the instructions of the handler's own
 * code in it (irqsoff_own()).
 * A window still open when the run ends is reported as such, not counted.
 */
#ifndef VIVT_EMU_IRQSOFF_H
#define VIVT_EMU_IRQSOFF_H

#include <stdbool.h>
#include <stdint.h>

/* The counters a cycle estimate charges (the memory system's are zero without the model). */
struct iw_cost {
	uint64_t dfills, ifills, dwritebacks, cp15, walks, drains;
	uint64_t pipe;			/* the pipeline's cycles beyond one per instruction */
};

/* Cycles per event, from arm926-costs.json. */
struct iw_costs {
	double insn, dfill, ifill, dwriteback, cp15, walk, drain, pipe;
};

struct iw_window {
	uint64_t start, len;
	uint32_t open_pc, close_pc;
	uint32_t open_lr;		/* preempt windows: who called the opener */
	int vector, line;		/* handler windows: vector offset / IRQ line, or -1 */
	uint64_t own;			/* handler windows: instructions of the handler's own code */
	struct iw_cost cost;		/* counters spent inside the window */
};

enum { IW_VECTORS = 8, IW_LINES = 64, IW_SITES = 512 };

/* The longest window opened at one place (thread windows, by opening PC). */
struct iw_site {
	struct iw_window max;
	uint64_t count;
};

enum iw_open { IW_NONE, IW_THREAD, IW_HANDLER, IW_BOOT };
enum iw_who { IW_KERNEL, IW_APP };

struct irqsoff {
	/* IRQs-off windows */
	enum iw_open open;
	struct iw_window cur;
	struct iw_cost cur_at;		/* counters when cur opened */
	struct iw_window thread_max, boot;
	struct iw_window thread_max_by[2];	/* by enum iw_who of the opening instruction */
	struct iw_site sites[IW_SITES];
	unsigned nsites;
	uint64_t thread_count, sites_dropped;
	struct iw_window vec_max[IW_VECTORS], line_max[IW_LINES];
	/* The handler window with the longest kernel part (len - own), and per line. */
	struct iw_window handler_kernel_max, line_kernel_max[IW_LINES];
	uint64_t vec_count[IW_VECTORS], line_count[IW_LINES];
	/* preemption-off windows (preempt_count's preempt_disable() bits) */
	bool preempt_booted, preempt_open;
	struct iw_window pcur;
	struct iw_cost pcur_at;
	/*
	 * Hard-IRQ time inside an open window (from irq_enter()'s store to
	 * irq_exit()'s) is not the window's: a handler delays a woken thread
	 * whatever the preempt count, and handler windows are measured apart.
	 */
	bool pirq_open;
	uint64_t pirq_start, pirq_insns;
	struct iw_cost pirq_at;
	struct iw_window preempt_max[2];	/* by enum iw_who */
	uint64_t preempt_count[2];
	/* Is a window opened at pc (caller lr) the kernel's or an application's? */
	enum iw_who (*classify)(void *ctx, uint32_t pc, uint32_t lr);
	void *classify_ctx;
};

/* Reset state: the CPU comes out of reset with IRQs masked (the boot window). */
void irqsoff_init(struct irqsoff *s, bool masked);
/*
 * The instruction at pc, position pos, may have written the CPSR's I bit;
 * masked is its value afterwards.  is_return: the instruction was an
 * exception return (SPSR copied to CPSR).
 */
void irqsoff_psr_write(struct irqsoff *s, uint64_t pos, uint32_t pc, bool masked,
		       bool is_return, const struct iw_cost *now);
/*
 * Exception entry (which masks IRQs); pos is the position of the vector's
 * first instruction.  vector is the vector offset / 4, line the IRQ line
 * the controller signals (or -1).
 */
void irqsoff_exception(struct irqsoff *s, uint64_t pos, int vector, int line, const struct iw_cost *now);
/* preempt_count changed from old to new by a store at pc (caller lr) at pos. */
void irqsoff_preempt(struct irqsoff *s, uint64_t pos, uint32_t pc, uint32_t lr,
		     uint32_t old, uint32_t new, const struct iw_cost *now);
/*
 * n instructions of a handler's own code (a driver's or an application's,
 * not the kernel's entry, dispatch, wake-ups and switch) ran: counted
 * against the open handler window, if any.
 */
static inline void irqsoff_own(struct irqsoff *s, uint64_t n)
{
	if (s->open == IW_HANDLER)
		s->cur.own += n;
}
/* Estimated ARM926 cycles of a window. */
double irqsoff_cycles(const struct iw_costs *c, const struct iw_window *w);
/* The n-th longest per-site thread window (n from 0), or NULL. */
const struct iw_site *irqsoff_site_rank(const struct irqsoff *s, unsigned n);

#endif
