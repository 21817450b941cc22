/*
 * Interrupts-off windows measured on the running image (irqsoff.h says
 * what a window is).  The I bit changes in three ways only:
 *  - an instruction that writes the CPSR: MSR to its control field, or an
 *    exception return (a data-processing op with S into PC, LDM with ^ and
 *    PC).  QEMU ends a translation block after each, so the next block
 *    hook reads what it left in the I bit.  An MSR's next block starts
 *    right after it: a bitmap of those addresses costs the block hook one
 *    test (a code hook per MSR would cost Unicorn a walk of every code
 *    hook at each one).  The few exception returns get a code hook each;
 *  - an exception entry, which the machine makes itself (cpu.c);
 *  - reset.
 * So the count is exact to the instruction, not to the block.  A branch
 * to an address after an MSR reads the I bit for nothing: no change.
 * preempt_count's word (in pcpu_hot) is watched for stores as well.
 */
#include <stdlib.h>
#include <string.h>
#include "vemu.h"
#include "memsys/memsys.h"
#include "cpu/irqsoff.h"
#include "arm926-costs.h"

#define PSR_I		(1u << 7)

struct psr_site {
	struct vemu *vm;
	bool is_return;
};

#define MAX_RANGES	8

/* Code the image loads: one bit per word, set after each MSR to the CPSR. */
struct msr_range {
	uint32_t va, words;
	uint8_t *after_msr;
};

/*
 * A handler's own code (a driver's, an application's, the C library's);
 * the scheduler and services (firmware/kernel: wake-ups, the switch),
 * always the kernel's; the rest of the kernel (mm, lib, arch, board), the
 * kernel's unless the handler's own code called it (its kmap work, say).
 */
enum code_kind { CODE_OWN, CODE_SCHED, CODE_KERNEL };

/* The marks the image rule links between groups of objects (Makefile). */
enum text_mark { SCHED_BEGIN, SCHED_END, APP_BEGIN, APP_END, NR_MARKS };
static const char *const mark_name[NR_MARKS] = {
	"__sched_text_begin", "__sched_text_end", "__app_text_begin", "__app_text_end",
};

/*
 * The functions a handler window ran through, in order, with the
 * instructions of the blocks entered in each (a block the window closes
 * in counts whole): where the kernel part of the longest one went.
 */
#define PATH_SEGS	128
#define HIGH_VECTORS	0xffff0000u
struct path_seg {
	uint32_t func;
	uint32_t insns;
};
struct handler_path {
	struct path_seg seg[PATH_SEGS];
	unsigned n;
	bool cut;		/* more functions than PATH_SEGS */
	uint64_t start;		/* the window's start */
};

struct irqsoff_cpu {
	struct irqsoff s;
	struct handler_path path, worst_path;
	uint32_t own_sp;		/* SP where the handler's own code was entered, 0: not in it */
	uint32_t own_lr;		/* where it returns to */
	struct msr_range ranges[MAX_RANGES];
	unsigned nranges;
	bool pending_return;
	uint32_t pending_pc;
	uint64_t pending_pos;
	uint32_t preempt_addr, preempt_val;
	uint32_t marks[NR_MARKS];	/* the image's text marks, by enum text_mark */
};

static void cost_now(struct vemu *vm, struct iw_cost *c)
{
	struct ms_stats st;

	if (!vm->ms) {
		*c = (struct iw_cost){ .pipe = vm->pipe_cycles };
		return;
	}
	ms_get_stats(vm->ms, &st);
	*c = (struct iw_cost){ .dfills = st.dline_fills, .ifills = st.iline_fills,
			       .dwritebacks = st.dwritebacks, .cp15 = st.cp15_ops,
			       .walks = st.walks, .drains = st.wb_drains, .pipe = vm->pipe_cycles };
}

/* Position (instructions retired before it) of the instruction at pc in the current block. */
static uint64_t position(struct vemu *vm, uint32_t pc)
{
	return vm->insns - (vm->block_pc + vm->block_size - pc) / 4;
}

static struct irqsoff_cpu *state(struct vemu *vm)
{
	if (!vm->irqsoff) {
		vm->irqsoff = calloc(1, sizeof(*vm->irqsoff));
		if (!vm->irqsoff)
			abort();
		irqsoff_init(&vm->irqsoff->s, true);
	}
	return vm->irqsoff;
}

void irqsoff_cpu_settle(struct vemu *vm)
{
	struct irqsoff_cpu *ic = vm->irqsoff;
	struct iw_cost c;

	vm->psr_pending = false;
	cost_now(vm, &c);
	irqsoff_psr_write(&ic->s, ic->pending_pos, ic->pending_pc,
			  cpu_reg(vm, UC_ARM_REG_CPSR) & PSR_I, ic->pending_return, &c);
}

static void psr_hook(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
	struct psr_site *site = user;
	struct vemu *vm = site->vm;
	struct irqsoff_cpu *ic = vm->irqsoff;

	(void)uc; (void)size;
	if (vm->psr_pending)	/* two in one block: settle the first as it stands */
		irqsoff_cpu_settle(vm);
	ic->pending_pc = (uint32_t)address;
	ic->pending_pos = position(vm, (uint32_t)address);
	ic->pending_return = site->is_return;
	vm->psr_pending = true;
}

/* Does insn write the CPSR (and is it an exception return)? */
static bool writes_cpsr(uint32_t insn, bool *is_return)
{
	if (insn >> 28 == 0xf)
		return false;
	*is_return = false;
	if ((insn & 0x0ff0fff0u) == 0x0120f000u || (insn & 0x0ff0f000u) == 0x0320f000u)
		return (insn & 0x00010000u) != 0;		/* MSR CPSR_c, reg or #imm */
	*is_return = true;
	if ((insn & 0x0c10f000u) == 0x0010f000u &&			/* ALU op with S, Rd = PC */
	    (insn & 0x01800000u) != 0x01000000u &&			/* not TST/TEQ/CMP/CMN */
	    (insn & 0x02000090u) != 0x00000090u)			/* not a multiply or LDRH */
		return true;
	if ((insn & 0x0e508000u) == 0x08508000u)			/* LDM ^ with PC */
		return true;
	return false;
}

static enum code_kind code_kind(struct vemu *vm, uint32_t pc)
{
	const struct irqsoff_cpu *ic = vm->irqsoff;

	/*
	 * By the image's marks, in link order: the rest of the kernel, the
	 * scheduler and services, then the devices' drivers (not the interrupt
	 * controller's: the dispatch is the kernel's), application and C library
	 * to the end of the loaded code. Past it: the vectors' page.
	 */
	if (pc < ic->marks[SCHED_BEGIN])
		return CODE_KERNEL;
	if (pc < ic->marks[SCHED_END])
		return CODE_SCHED;
	for (unsigned i = 0; i < ic->nranges; i++)
		if (pc - ic->ranges[i].va < ic->ranges[i].words * 4u)
			return CODE_OWN;
	return CODE_KERNEL;
}

/* The path of the longest kernel part so far, if it is the one just recorded. */
static void keep_worst_path(struct irqsoff_cpu *ic)
{
	if (ic->path.n && ic->s.handler_kernel_max.len && ic->s.handler_kernel_max.start == ic->path.start &&
	    !(ic->s.open == IW_HANDLER && ic->s.cur.start == ic->path.start))
		ic->worst_path = ic->path;
}

static void note_path(struct vemu *vm, struct irqsoff_cpu *ic, uint32_t pc, uint32_t insns)
{
	struct handler_path *p = &ic->path;
	uint32_t off = 0, func;

	if (vm->sweep.result)
		return;		/* a sweep's run reports no windows */
	if (p->start != ic->s.cur.start || !p->n) {
		keep_worst_path(ic);
		p->n = 0;
		p->cut = false;
		p->start = ic->s.cur.start;
	}
	func = pc >= HIGH_VECTORS ? pc : symbols_lookup(vm->syms, pc, &off) ? pc - off : pc;
	if (p->n && p->seg[p->n - 1].func == func)
		p->seg[p->n - 1].insns += insns;
	else if (p->n < PATH_SEGS)
		p->seg[p->n++] = (struct path_seg){ func, insns };
	else
		p->cut = true;
}

/*
 * Inside the handler's own code, and what it calls on a deeper stack,
 * every instruction is the handler's but the scheduler's and services'
 * (a wake-up is the kernel's, whoever asks for it); the stack back at the
 * level the handler's code was entered from means it returned.
 */
void irqsoff_cpu_own(struct vemu *vm, uint32_t pc, uint32_t size)
{
	struct irqsoff_cpu *ic = vm->irqsoff;
	enum code_kind kind;
	uint32_t sp;

	if (!ic)
		return;
	if (ic->s.open != IW_HANDLER) {
		ic->own_sp = 0;
		return;
	}
	kind = code_kind(vm, pc);
	note_path(vm, ic, pc, size / 4);
	sp = cpu_reg(vm, UC_ARM_REG_SP);
	/*
	 * Out of the handler's code when it returns to where it was called
	 * from (a tail call keeps that address, and runs at the caller's
	 * stack level: the level alone would end it there), or when the
	 * stack is above its entry level (it was left some other way).
	 */
	if (ic->own_sp && (pc == ic->own_lr || sp > ic->own_sp))
		ic->own_sp = 0;
	if (kind == CODE_OWN && !ic->own_sp) {
		ic->own_sp = sp;	/* the handler's entry: its caller's stack */
		ic->own_lr = cpu_reg(vm, UC_ARM_REG_LR) & ~1u;
	}
	if (kind == CODE_OWN || (kind == CODE_KERNEL && ic->own_sp))
		irqsoff_own(&ic->s, size / 4);
}

void irqsoff_cpu_block(struct vemu *vm, uint32_t pc)
{
	struct irqsoff_cpu *ic = vm->irqsoff;
	struct iw_cost c;

	for (unsigned i = 0; i < ic->nranges; i++) {
		struct msr_range *r = &ic->ranges[i];
		uint32_t w = (pc - r->va) / 4;

		if (w >= r->words)
			continue;
		if (!(r->after_msr[w / 8] >> (w % 8) & 1))
			return;
		cost_now(vm, &c);
		/* The block hook has not counted this block yet: the MSR was the last one counted. */
		irqsoff_psr_write(&ic->s, vm->insns - 1, pc - 4,
				  cpu_reg(vm, UC_ARM_REG_CPSR) & PSR_I, false, &c);
		return;
	}
}

void irqsoff_cpu_add_sites(struct vemu *vm, const uint8_t *code, uint32_t va, uint32_t len)
{
	struct irqsoff_cpu *ic = state(vm);
	struct msr_range *r = NULL;

	if (ic->nranges < MAX_RANGES && len >= 4) {
		r = &ic->ranges[ic->nranges++];
		r->va = va;
		r->words = len / 4 + 1;
		r->after_msr = calloc(r->words / 8 + 1, 1);
		if (!r->after_msr)
			abort();
	}
	for (uint32_t off = 0; off + 4 <= len; off += 4) {
		uint32_t insn;
		bool ret;
		struct psr_site *site;
		uc_hook h;

		memcpy(&insn, code + off, 4);
		if (!writes_cpsr(insn, &ret))
			continue;
		if (!ret) {
			if (!r) {
				fprintf(stderr, "vivt-emu: more than %d code segments: IRQs-off windows unmeasured\n", MAX_RANGES);
				exit(1);
			}
			r->after_msr[(off / 4 + 1) / 8] |= (uint8_t)(1u << ((off / 4 + 1) % 8));
			continue;
		}
		site = malloc(sizeof(*site));
		if (!site)
			abort();
		*site = (struct psr_site){ vm, ret };
		if (uc_hook_add(vm->uc, &h, UC_HOOK_CODE, (void *)psr_hook, site,
				va + off, va + off) != UC_ERR_OK) {
			fprintf(stderr, "vivt-emu: cannot hook the CPSR write at 0x%08x\n", va + off);
			exit(1);
		}
	}
}

void irqsoff_cpu_exception(struct vemu *vm, uint32_t vector_offset)
{
	struct irqsoff_cpu *ic = vm->irqsoff;
	struct iw_cost c;

	if (!ic)
		return;
	if (vm->psr_pending)
		irqsoff_cpu_settle(vm);
	cost_now(vm, &c);
	irqsoff_exception(&ic->s, vm->insns, (int)(vector_offset / 4),
			  vector_offset == 0x18 ? vm->irq_source : -1, &c);
}

static void preempt_hook(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *user)
{
	struct vemu *vm = user;
	struct irqsoff_cpu *ic = vm->irqsoff;
	uint32_t pc, val;
	struct iw_cost c;

	(void)uc; (void)type;
	if (addr != ic->preempt_addr || size < 4)
		return;		/* a byte store into the word: not how the kernel counts */
	val = (uint32_t)value;
	/* The model's own hook (added first) has counted this store already. */
	pc = report_exact_pc(vm, true, vm->ms && vm->block_stores ? vm->block_stores - 1 : 0);
	cost_now(vm, &c);
	irqsoff_preempt(&ic->s, position(vm, pc), pc, cpu_reg(vm, UC_ARM_REG_LR), ic->preempt_val, val, &c);
	ic->preempt_val = val;
}

/* The kernel's, unless the code that opened it is an application's (kmap_atomic is inline). */
static enum iw_who classify(void *ctx, uint32_t pc, uint32_t lr)
{
	const struct irqsoff_cpu *ic = ((struct vemu *)ctx)->irqsoff;

	(void)lr;
	return pc >= ic->marks[APP_BEGIN] && pc < ic->marks[APP_END] ? IW_APP : IW_KERNEL;
}

int irqsoff_cpu_init(struct vemu *vm)
{
	struct irqsoff_cpu *ic = state(vm);
	uc_hook h;

	ic->s.classify = classify;
	ic->s.classify_ctx = vm;
	/* An image without the marks (not built by this tree): all the kernel's. */
	for (unsigned i = 0; i < NR_MARKS; i++)
		if (!symbols_find(vm->syms, mark_name[i], &ic->marks[i]))
			ic->marks[i] = i == SCHED_BEGIN ? UINT32_MAX : 0;
	if (guest_pcpu_hot_field(vm, PCPU_HOT_PREEMPT, &ic->preempt_addr)) {
		guest_read(vm, ic->preempt_addr, &ic->preempt_val, 4);
		uc_hook_add(vm->uc, &h, UC_HOOK_MEM_WRITE, (void *)preempt_hook, vm,
			    ic->preempt_addr, ic->preempt_addr + 3);
	}
	return 0;
}

/* "func+0xoff (file:line)" for pc. */
static void where(struct vemu *vm, uint32_t pc, char *buf, size_t len)
{
	uint32_t off = 0;
	const char *sym = symbols_lookup(vm->syms, pc, &off);
	char line[400];

	symbols_source_line_outer(vm->syms, pc, line, sizeof(line));
	/* Paths from the repository root read the same in every worktree. */
	const char *rel = strstr(line, "/firmware/");
	if (!rel) rel = strstr(line, "/arch/");
	if (!rel) rel = strstr(line, "/tests/");
	snprintf(buf, len, "%s+0x%x (%s)", sym ? sym : "?", off, rel ? rel + 1 : line[0] ? line : "no line");
}

static const char *const vector_name[IW_VECTORS] = {
	"reset", "undefined", "SVC", "prefetch abort", "data abort", "?", "IRQ", "FIQ",
};
/* The same as stats-file keys. */
static const char *const vector_key[IW_VECTORS] = {
	"reset", "undefined", "svc", "prefetch_abort", "data_abort", "vector5", "irq", "fiq",
};

/* A count's unit as the report prints it: "1 window", "2 windows". */
static const char *unit_for(const char *unit, uint64_t count)
{
	if (count != 1)
		return unit;
	if (!strcmp(unit, "windows"))
		return "window";
	if (!strcmp(unit, "windows from there"))
		return "window from there";
	if (!strcmp(unit, "entries"))
		return "entry";
	return unit;
}

/* One measured window: its stats-file key, its name for people, how many
 * windows of its kind there were (with unit, or NULL). */
struct window_desc {
	char key[32], what[80];
	const struct iw_window *w;
	uint64_t count;
	const char *unit;
};

typedef void window_fn(struct vemu *vm, const struct window_desc *d, void *ctx);

/* Each window worth reporting, in the order the report prints them: the
 * printed report and the stats file walk the same list. */
static void each_window(struct vemu *vm, const struct irqsoff *s, window_fn *fn, void *ctx)
{
	static const char *const who_key[2] = { "kernel", "app" };
	static const char *const who_name[2] = { "the kernel", "an application" };
	struct window_desc d;

/* Sites reported by rank: as many as the calibration image opens windows in. */
#define REPORT_SITES	6
#define WINDOW(w_, count_, unit_, key_fmt, ...) do {					\
		d.w = (w_); d.count = (count_); d.unit = (unit_);			\
		snprintf(d.key, sizeof(d.key), key_fmt, __VA_ARGS__);			\
		fn(vm, &d, ctx);							\
	} while (0)
	if (s->thread_max.len) {
		snprintf(d.what, sizeof(d.what), "irqs-off thread max");
		WINDOW(&s->thread_max, s->thread_count, "windows", "%s", "thread");
	}
	for (int who = 0; who < 2; who++) {
		if (!s->thread_max_by[who].len)
			continue;
		snprintf(d.what, sizeof(d.what), "irqs-off thread max, opened by %s", who_name[who]);
		WINDOW(&s->thread_max_by[who], 0, NULL, "thread.%s", who_key[who]);
	}
	for (unsigned r = 1; r < REPORT_SITES; r++) {
		const struct iw_site *site = irqsoff_site_rank(s, r);

		if (!site)
			break;
		snprintf(d.what, sizeof(d.what), "irqs-off thread #%u", r + 1);
		WINDOW(&site->max, site->count, "windows from there", "thread.rank%u", r + 1);
	}
	for (int v = 0; v < IW_VECTORS; v++) {
		if (!s->vec_count[v] || v == 6)
			continue;
		snprintf(d.what, sizeof(d.what), "irqs-off handler %s", vector_name[v]);
		WINDOW(&s->vec_max[v], s->vec_count[v], "entries", "handler.%s", vector_key[v]);
	}
	for (int l = 0; l < IW_LINES; l++) {
		if (!s->line_count[l])
			continue;
		snprintf(d.what, sizeof(d.what), "irqs-off handler IRQ line %d", l);
		WINDOW(&s->line_max[l], s->line_count[l], "entries", "handler.line%d", l);
	}
	for (int who = 0; who < 2; who++) {
		if (!s->preempt_count[who])
			continue;
		snprintf(d.what, sizeof(d.what), "preempt-off max, opened by %s", who_name[who]);
		WINDOW(&s->preempt_max[who], s->preempt_count[who], "windows", "preempt.%s", who_key[who]);
	}
#undef WINDOW
}

static const struct iw_costs costs = ARM926_COSTS;

static void print_window(struct vemu *vm, const struct window_desc *d, void *ctx)
{
	char open[600] = "", close[600];

	(void)ctx;
	if (d->w->open_pc)
		where(vm, d->w->open_pc, open, sizeof(open));
	where(vm, d->w->close_pc, close, sizeof(close));
	fprintf(vm->out, "vivt-emu: %s: %llu instructions, ~%.0f ARM926 cycles%s, opened at %s, closed at %s",
		d->what, (unsigned long long)d->w->len, irqsoff_cycles(&costs, d->w),
		vm->ms ? "" : " (no model: instructions only)", d->w->open_pc ? open : "the vector", close);
	if (d->unit)
		fprintf(vm->out, "; %llu %s", (unsigned long long)d->count, unit_for(d->unit, d->count));
	fputc('\n', vm->out);
}

/* The longest handler window, over every vector and IRQ line. */
static uint64_t handler_max(const struct irqsoff *s)
{
	uint64_t max = 0;

	for (int v = 0; v < IW_VECTORS; v++)
		if (s->vec_count[v] && v != 6 && s->vec_max[v].len > max)
			max = s->vec_max[v].len;
	for (int l = 0; l < IW_LINES; l++)
		if (s->line_count[l] && s->line_max[l].len > max)
			max = s->line_max[l].len;
	return max;
}

/* The handler window with the longest kernel part, or line l's (l < 0: over all lines). */
static const struct iw_window *kernel_part(const struct irqsoff *s, int l)
{
	const struct iw_window *w = l < 0 ? &s->handler_kernel_max : &s->line_kernel_max[l];

	return w->len ? w : NULL;
}

/* "func N, func N, ...": the longest kernel part's path, on one line. */
static void print_path(struct vemu *vm, struct irqsoff_cpu *ic, FILE *f, const char *prefix)
{
	const struct handler_path *p;

	keep_worst_path(ic);
	p = &ic->worst_path;
	if (!p->n)
		return;
	fputs(prefix, f);
	for (unsigned i = 0; i < p->n; i++) {
		uint32_t off = 0;
		const char *name = symbols_lookup(vm->syms, p->seg[i].func, &off);

		if (p->seg[i].func >= HIGH_VECTORS)	/* the copy at 0xffff0000 has no symbol of its own */
			fprintf(f, "%svector 0x%x %u", i ? ", " : "", p->seg[i].func, p->seg[i].insns);
		else if (name && !off)
			fprintf(f, "%s%s %u", i ? ", " : "", name, p->seg[i].insns);
		else
			fprintf(f, "%s0x%08x %u", i ? ", " : "", p->seg[i].func, p->seg[i].insns);
	}
	fprintf(f, "%s\n", p->cut ? ", ..." : "");
}

static void print_kernel_part(struct vemu *vm, const char *what, const struct iw_window *w)
{
	char close[600];

	where(vm, w->close_pc, close, sizeof(close));
	fprintf(vm->out, "vivt-emu: %s: %llu instructions in the kernel of a %llu-instruction window "
		"(the handler's own code: %llu), IRQ line %d, closed at %s\n", what,
		(unsigned long long)(w->len - w->own), (unsigned long long)w->len,
		(unsigned long long)w->own, w->line, close);
}

void irqsoff_cpu_report(struct vemu *vm)
{
	struct irqsoff_cpu *ic = vm->irqsoff;
	struct irqsoff *s;

	if (!ic)
		return;
	s = &ic->s;
	if (!s->thread_max.len)
		fprintf(vm->out, "vivt-emu: irqs-off thread max: none after boot\n");
	each_window(vm, s, print_window, NULL);
	if (kernel_part(s, -1)) {
		print_kernel_part(vm, "irqs-off handler, kernel part max", kernel_part(s, -1));
		print_path(vm, ic, vm->out, "vivt-emu:   its path: ");
	}
	if (s->boot.len)
		fprintf(vm->out, "vivt-emu: irqs-off boot: %llu instructions from reset to the first unmask (not counted)\n",
			(unsigned long long)s->boot.len);
	if (s->open != IW_NONE)
		fprintf(vm->out, "vivt-emu: irqs-off at exit: a %s window open for %llu instructions (not counted)\n",
			s->open == IW_THREAD ? "thread" : s->open == IW_HANDLER ? "handler" : "boot",
			(unsigned long long)(vm->insns - s->cur.start));
}

static void stats_window(struct vemu *vm, const struct window_desc *d, void *ctx)
{
	FILE *f = ctx;
	char where_buf[600];

	fprintf(f, "irqsoff.%s.insns=%llu\n", d->key, (unsigned long long)d->w->len);
	fprintf(f, "irqsoff.%s.cycles=%.0f\n", d->key, irqsoff_cycles(&costs, d->w));
	if (d->unit)
		fprintf(f, "irqsoff.%s.count=%llu\n", d->key, (unsigned long long)d->count);
	if (d->w->open_pc)
		where(vm, d->w->open_pc, where_buf, sizeof(where_buf));
	fprintf(f, "irqsoff.%s.opened=%s\n", d->key, d->w->open_pc ? where_buf : "the vector");
	where(vm, d->w->close_pc, where_buf, sizeof(where_buf));
	fprintf(f, "irqsoff.%s.closed=%s\n", d->key, where_buf);
}

void irqsoff_cpu_stats(struct vemu *vm, FILE *f)
{
	struct irqsoff_cpu *ic = vm->irqsoff;
	struct irqsoff *s;

	if (!ic)
		return;
	s = &ic->s;
	fprintf(f, "irqsoff.thread_max=%llu\n", (unsigned long long)s->thread_max.len);
	fprintf(f, "irqsoff.handler_max=%llu\n", (unsigned long long)handler_max(s));
	fprintf(f, "irqsoff.boot=%llu\n", (unsigned long long)s->boot.len);
	each_window(vm, s, stats_window, f);
	for (int l = -1; l < IW_LINES; l++) {
		const struct iw_window *w = kernel_part(s, l);
		char key[32], close[600];

		if (!w)
			continue;
		snprintf(key, sizeof(key), l < 0 ? "handler_kernel" : "handler_kernel.line%d", l);
		where(vm, w->close_pc, close, sizeof(close));
		fprintf(f, "irqsoff.%s.insns=%llu\nirqsoff.%s.window=%llu\nirqsoff.%s.own=%llu\n"
			"irqsoff.%s.line=%d\nirqsoff.%s.closed=%s\n", key,
			(unsigned long long)(w->len - w->own), key, (unsigned long long)w->len, key,
			(unsigned long long)w->own, key, w->line, key, close);
		if (l < 0)
			print_path(vm, ic, f, "irqsoff.handler_kernel.path=");
	}
}

void irqsoff_cpu_free(struct vemu *vm)
{
	for (unsigned i = 0; vm->irqsoff && i < vm->irqsoff->nranges; i++)
		free(vm->irqsoff->ranges[i].after_msr);
	free(vm->irqsoff);
	vm->irqsoff = NULL;
}
