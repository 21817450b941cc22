/*
 * vivt-emu, the machine side: what the run loop, the CPU glue and the
 * device models share.  The memory-system model has its own contract
 * (memsys.h); nothing here reaches into it.
 */
#ifndef VIVT_EMU_VEMU_H
#define VIVT_EMU_VEMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unicorn/unicorn.h>

struct vemu;
struct memsys;
struct symbols;
struct pipe_map;

/* One register window of a device inside the machine's MMIO range. */
struct device {
	const char *name;
	uint32_t base, size;
	/* Both return false for an offset the model does not know: the run stops. */
	bool (*read)(struct device *d, uint32_t off, unsigned size, uint32_t *val);
	bool (*write)(struct device *d, uint32_t off, unsigned size, uint32_t val);
	void (*finish)(struct device *d);	/* end of run (may be NULL) */
	struct vemu *vm;
	void *priv;
};

/* Something due at an emulated time (1 instruction = 1 ns). */
struct event {
	uint64_t when;
	bool armed;
	void (*fire)(struct event *e);
	void *priv;
	/*
	 * Set only on an event that looks for host input (a UART's receive
	 * poll): the host descriptor whose next byte would raise the device's
	 * interrupt now, or -1 while no byte would (receiver or its interrupt
	 * off, a byte not yet read, input ended).  Such an event firing with
	 * nothing to read is neither a wake-up nor a sign of a halt.
	 */
	int (*input_fd)(struct event *e);
};

/* An interrupt input of some controller. */
struct irq_line {
	void (*set)(void *ctl, unsigned line, bool level);
	void *ctl;
	unsigned line;
};

static inline void irq_set(const struct irq_line *l, bool level)
{
	if (l->set)
		l->set(l->ctl, l->line, level);
}

/* A board: its memory map and the devices it builds. */
struct machine_desc {
	const char *name;
	uint32_t ram_base;
	uint32_t ram_max_mb;
	uint32_t mmio_base, mmio_size;	/* one uc_mmio_map for every device */
	uint32_t mmio2_base, mmio2_size;	/* a second window (size 0: none) */
	uint32_t flash_base, flash_size;	/* 0: no flash */
	void (*init)(struct vemu *vm);
};

/*
 * A machine file names its board once, MACHINE_REGISTER(its_desc), and the
 * linker gathers every board linked in: adding a board edits no list.
 */
#define MACHINE_REGISTER(desc)							\
	static const struct machine_desc *const desc##_entry			\
	__attribute__((used, section("vemu_machines"), aligned(sizeof(void *)))) = &desc

/* The board called name, or NULL. */
const struct machine_desc *machine_find(const char *name);
/* Every board's name, separated by ", ", for help and error messages. */
void machine_print_names(FILE *f);

struct options {
	const char *elf;
	const char *inner;	/* --image: the ELF a boot stub copies to RAM */
	const struct machine_desc *mach;
	uint32_t ram_mb;
	bool board_mode;	/* no semihosting: the SVC goes to the firmware */
	bool model;		/* run the memory-system model */
	uint32_t dcache_kb;	/* 0: from the cache type register */
	uint32_t seed;		/* IRQ jitter and random replacement */
	uint32_t jitter_ns;	/* each timer event lands up to this much late */
	bool random_repl;
	const char *vcd;	/* marker pins as a VCD */
	const char *input;	/* UART RX source (default stdin) */
	bool input_line;	/* the input is a serial line: it does not wait for the driver */
	uint64_t max_insns;	/* emulated ns before the run fails; 0: no limit */
	uint64_t insn_limit;	/* instructions before the run fails; 0: no limit */
	uint32_t max_reports;	/* stop after this many reports */
	bool stats;
	const char *stats_at_lines;	/* regex: model counters at matching console lines */
	const char *stats_file;		/* the run's figures as key=value lines, or NULL */
	const char *sweep;		/* --sweep: a function or START-END (sweep.c), or NULL */
	uint32_t sweep_arrival;		/* the visit swept: the Nth arrival at the range's start */
	uint32_t sweep_max;		/* at most this many runs: sample a longer visit evenly */
	uint32_t sweep_jobs;		/* runs at once */
	const char *sweep_dir;		/* keep every run's console and messages here, or NULL */
};

/*
 * A run that never ends (the shell image with no exit) stops after this
 * many instructions: over twice what the bench image retires (8.5e9).
 * Instructions, not emulated time: an idle shell passes minutes of that
 * in a second.
 */
#define VEMU_DEFAULT_INSN_LIMIT	20000000000ull

enum stop_kind { STOP_NONE, STOP_IRQ, STOP_EXIT, STOP_ERROR, STOP_RESUME,
		 STOP_SWEEP_ARRIVAL, STOP_SWEEP_POINT, STOP_COUNT };

/*
 * The sweep (--sweep): one run per instruction of a visit to a range, each
 * with an IRQ landed right before that instruction (sweep-cpu.c hooks the
 * range, system/sweep.c forks the runs at the arrival).
 */
enum sweep_phase { SWEEP_OFF, SWEEP_WAIT, SWEEP_COUNT, SWEEP_DONE };

struct sweep_state {
	enum sweep_phase phase;
	uint32_t start, end;		/* the range [start, end) */
	uint64_t arrivals;		/* times the PC reached start */
	uint32_t ret_pc, ret_sp;	/* the visit ends when its call returns here */
	uint64_t steps;			/* the visit's instructions inside the range so far */
	int64_t target;			/* the step the IRQ lands before; -1: count only */
	uint32_t point_pc;		/* where it landed */
	int landed;			/* 1 taken there, 0 held by CPSR.I there, 2 line masked
					 * at the controller, -1 never reached */
	uint32_t ret_mode;		/* ... in the mode it was called in */
	uint32_t soft_line;		/* the guest's board_soft_irq */
	uint32_t regs[17];		/* r0-r15, CPSR at the stop: proof the instruction waited */
	struct sweep_result *result;	/* this run's slot in the parent's shared table */
};

#define VEMU_MAX_DEVS	32
#define VEMU_MAINT_RING	4096	/* recent CP15 c7/c8 operations, for reports */

struct maint_op {
	uint64_t when;
	uint32_t pc, val;
	uint8_t crn, crm, opc2;
};
#define VEMU_MAX_EVENTS	32

struct vemu {
	struct options opt;
	const struct machine_desc *mach;
	uc_engine *uc;
	uint8_t *ram;
	uint32_t ram_size;
	uint8_t *flash;

	uint64_t now;			/* emulated ns: instructions retired + time idled in WFI */
	uint64_t insns;			/* instructions retired */
	uint64_t next_event;
	struct event *events[VEMU_MAX_EVENTS];
	unsigned nevents;
	struct event console_flush;	/* shows a partial console line (a prompt) */
	struct device *devs[VEMU_MAX_DEVS];
	unsigned ndevs;
	bool irq_level;			/* the CPU's nIRQ input */
	uint32_t rng;

	/* run loop */
	enum stop_kind stop;
	uint32_t resume_pc;
	int exit_status;
	uint32_t block_pc;		/* start of the block executing now */
	uint32_t block_size;
	unsigned block_loads, block_stores;	/* accesses so far in this block */
	int access_kind;		/* 1 load, 2 store: a report comes from it */
	uint64_t count_left;		/* STOP_COUNT: the instructions left before the limit */
	bool counting;			/* the next block is the one Unicorn's count runs */
	uint32_t wfi_pc;		/* quiet-halt detection */
	unsigned wfi_repeats;
	uint64_t irqs_taken;
	uint64_t *irqs_in;		/* per symbol index: IRQs that landed inside that function */

	struct maint_op maint[VEMU_MAINT_RING];
	uint32_t maint_next;		/* total recorded; index mod the ring */

	struct memsys *ms;
	struct irqsoff_cpu *irqsoff;	/* interrupts-off windows (irqsoff-cpu.c) */
	struct pipe_map *pipe;		/* static pipeline costs (pipeline-cpu.c) */
	uint64_t pipe_cycles;		/* cycles beyond one per instruction so far */
	bool psr_pending;		/* a CPSR write to look at in the next block */
	int irq_source;			/* the line the interrupt controller signals, or -1 */
	unsigned long reports;
	struct symbols *syms;
	struct stats_lines *stats_lines;	/* --stats-at-lines, or NULL */
	FILE *out;			/* emulator's own messages */
	uint64_t runctl_next;		/* instruction count of the next runctl_check() */
	struct sweep_state sweep;
	/* Raise the board's software interrupt line as the guest's own raise
	 * would (NULL: the board has none the sweep can use). */
	void (*soft_irq_raise)(struct vemu *vm, unsigned line);
};

/* machine.c */
void vemu_add_device(struct vemu *vm, struct device *d);

/*
 * A device model's state, zeroed, its struct device (the member named dev)
 * set from the fields given, with priv pointing at the state, and
 * registered: the allocation and registration every model in hw/ makes.
 * Never NULL (out of memory aborts the run).
 *   struct pl011 *u = DEVICE_NEW(vm, struct pl011, .name = "PL011 UART", .base = base, ...);
 */
#define DEVICE_NEW(vm, type, ...) \
	((type *)device_new((vm), sizeof(type), offsetof(type, dev), &(struct device){ __VA_ARGS__ }))
void *device_new(struct vemu *vm, size_t size, size_t dev_offset, const struct device *fields);void vemu_event_add(struct vemu *vm, struct event *e);
void vemu_event_arm(struct vemu *vm, struct event *e, uint64_t when);
void vemu_event_cancel(struct vemu *vm, struct event *e);
void vemu_run_events(struct vemu *vm);
/* How a WFI's sleep ended (vemu_sleep). */
enum sleep_end {
	SLEEP_WOKEN,	/* the CPU's IRQ input is raised */
	SLEEP_STOPPED,	/* the run ends: a signal, a limit, a device's error */
	SLEEP_FOREVER,	/* nothing armed could ever raise an IRQ */
	SLEEP_UNWOKEN,	/* devices' events kept firing for an hour of emulated time, no IRQ */
};
/*
 * WFI's sleep, pc the WFI's address (for messages): emulated time goes from
 * event to event until the CPU's IRQ input is raised, as the ARM926 wakes
 * only for a pending interrupt (even a masked one).  While only input polls
 * are armed and some input would raise an interrupt, it waits for the host's
 * input in wall-clock time.
 */
enum sleep_end vemu_sleep(struct vemu *vm, uint32_t pc);
void vemu_set_irq(struct vemu *vm, bool level);
uint32_t vemu_random(struct vemu *vm);
/* Ends the run with an error naming what happened; exit status 1. */
void vemu_fail(struct vemu *vm, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void vemu_exit(struct vemu *vm, int status);
int vemu_run(struct vemu *vm);
void vemu_mmio_init(struct vemu *vm);

/* Functions whose interruption check-vivt wants to see happen. */

/* cpu.c */
int cpu_init(struct vemu *vm);
/* Time, exceptions, faults and (with a model) every access. */
void cpu_add_hooks(struct vemu *vm);
void cpu_add_cp15_sites(struct vemu *vm, const uint8_t *code, uint32_t va, uint32_t len);
uint32_t cpu_reg(struct vemu *vm, int reg);
void cpu_set_reg(struct vemu *vm, int reg, uint32_t val);
uint32_t cpu_cp15(struct vemu *vm, unsigned crn, unsigned opc1, unsigned crm, unsigned opc2);
void cpu_set_cp15(struct vemu *vm, unsigned crn, unsigned opc1, unsigned crm, unsigned opc2, uint32_t val);
void cpu_flush_tlb(struct vemu *vm);
void cpu_take_irq(struct vemu *vm, uint32_t pc);
/* The run's end at --insn-limit, pc where it stopped. */
void cpu_insn_limit_stop(struct vemu *vm, uint32_t pc);
bool cpu_cond_passed(uint32_t insn, uint32_t cpsr);

/* mmu-probe.c: the guest's own translation, for faults and host reads */
enum { PROBE_OK = 0 };
/* Returns 0 and the PA, or the ARMv5 fault status (FSR bits 3:0 | domain << 4). */
uint32_t mmu_probe(struct vemu *vm, uint32_t va, bool write, uint32_t *pa);
bool guest_read(struct vemu *vm, uint32_t va, void *buf, uint32_t len);
/*
 * Where the kernel keeps one field of its CPU state: i is an index into
 * its pcpu_hot_offsets[] (lokal/cpu.h). False for an image without them.
 */
enum { PCPU_HOT_PREEMPT, PCPU_HOT_CURR };
bool guest_pcpu_hot_field(struct vemu *vm, unsigned int i, uint32_t *addr);

/* elf.c */
int elf_load(struct vemu *vm, const char *path, uint32_t *entry, bool load);

/* symbols.c */
struct symbols *symbols_load(const char *path);
void symbols_free(struct symbols *s);
/* How many symbols were read: 0 for an ELF without a (whole) symbol table. */
size_t symbols_count(const struct symbols *s);
/* Name of the function holding addr and the offset into it, or NULL. */
const char *symbols_lookup(const struct symbols *s, uint32_t addr, uint32_t *off);
/* The function holding addr as an index below symbols_count(), or -1. */
long symbols_func_index(const struct symbols *s, uint32_t addr);
/* Symbol i's name (i below symbols_count()), or NULL. */
const char *symbols_name(const struct symbols *s, size_t i);
bool symbols_find(const struct symbols *s, const char *name, uint32_t *addr);
/* The function called name: its address and size (an assembly label's runs
 * to the next function); false if there is none. */
bool symbols_find_func(const struct symbols *s, const char *name, uint32_t *addr, uint32_t *size);
/* In a forked child: leave the parent's addr2line alone, start another when asked. */
void symbols_after_fork(struct symbols *s);
/* "file:line" for addr from the ELF's DWARF (addr2line), or "". */
void symbols_source_line(const struct symbols *s, uint32_t addr, char *buf, size_t len);
/* The same in the function the code was inlined into (addr2line -i's last line). */
void symbols_source_line_outer(const struct symbols *s, uint32_t addr, char *buf, size_t len);

/* irqsoff-cpu.c: interrupts-off and preemption-off windows */
int irqsoff_cpu_init(struct vemu *vm);
void irqsoff_cpu_add_sites(struct vemu *vm, const uint8_t *code, uint32_t va, uint32_t len);
/* pipeline-cpu.c: the pipeline's extra cycles of an executable segment, and of a block about to run. */
void pipeline_add_code(struct vemu *vm, const uint8_t *code, uint32_t va, uint32_t len);
uint32_t pipeline_block(struct vemu *vm, uint32_t pc, uint32_t size);
/* The CPSR write a hooked site made, read at the next block's start. */
void irqsoff_cpu_settle(struct vemu *vm);
/* Every block, before it is counted: a block right after an MSR reads the I bit. */
void irqsoff_cpu_block(struct vemu *vm, uint32_t pc);
/* The block at pc (size bytes) is about to run: a handler's own code counts apart. */
void irqsoff_cpu_own(struct vemu *vm, uint32_t pc, uint32_t size);
void irqsoff_cpu_exception(struct vemu *vm, uint32_t vector_offset);
void irqsoff_cpu_report(struct vemu *vm);
/* The same figures as irqsoff.* key=value lines of the stats file (stats-file.c). */
void irqsoff_cpu_stats(struct vemu *vm, FILE *f);
void irqsoff_cpu_free(struct vemu *vm);

/* runctl.c: signals end the run in order; progress on a terminal */
void runctl_init(struct vemu *vm);
/* From the block hook once vm->insns reaches vm->runctl_next. */
void runctl_check(struct vemu *vm);
/* True (the run stopping, after its message) if a signal asked the run to end. */
bool runctl_signalled(struct vemu *vm);
void runctl_done(void);

/* sweep-cpu.c: the range's hook, the arrival and the IRQ landed at a step */
/* Parse --sweep against the symbols and hook the range; -1 after a message. */
int sweep_cpu_init(struct vemu *vm);
/* From the run loop at STOP_SWEEP_ARRIVAL: the sweep starts (sweep_arrive); the PC to resume at. */
uint32_t sweep_cpu_arrive(struct vemu *vm);
/* From the run loop at STOP_SWEEP_POINT: land the IRQ; the PC to resume at. */
uint32_t sweep_cpu_land(struct vemu *vm);
/* From the block hook: the visit ends when its call returns. */
void sweep_cpu_block(struct vemu *vm, uint32_t pc);

/* system/sweep.c: the runs of a sweep, forked at the arrival */
/* From the run loop at STOP_SWEEP_ARRIVAL: the parent runs the sweep and
 * exits; returns in each child, set to land its IRQ. */
void sweep_arrive(struct vemu *vm);
/* A child's end (main): its figures to the parent; the parent's own end with
 * no arrival: a message.  Returns the status to exit with. */
int sweep_finish(struct vemu *vm, int status);

/* semihost.c */
bool semihost_call(struct vemu *vm);

/* stats-lines.c: --stats-at-lines (needs the model; -1 after a message) */
int stats_lines_init(struct vemu *vm, const char *regex);
/* Every console character: a matching line prints the counters' deltas. */
void stats_lines_putc(struct vemu *vm, int c);
/* One byte of the board's console, to stdout; a line without its newline (a
 * prompt) still shows within 1 ms of emulated time. */
void vemu_console_putc(struct vemu *vm, int c);
/* The console's input: the file named by --input, else stdin; a file that
 * cannot be opened ends the run before it starts. */
int vemu_console_input(const char *input);
void stats_lines_free(struct vemu *vm);

/* stats-file.c: --stats-file; -1 (after a message) if it cannot be written */
int stats_file_write(struct vemu *vm, const char *path, int status, double secs, double cpu);

/* report.c */
struct ms_report;
void report_print(void *ctx, const struct ms_report *r);
uint32_t report_exact_pc(struct vemu *vm, bool is_store, unsigned ordinal);
void report_thread_name(struct vemu *vm, char *buf, size_t len);

#endif
