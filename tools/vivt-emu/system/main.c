/*
 * vivt-emu: run an unmodified Lokal ELF on an emulated ARM926EJ-S board
 * with a model of its VIVT caches, write buffer, TLB and table walker, and
 * fail on any incoherence the real CPU would have shown.
 *
 * Exit status: the firmware's own (semihosting exit), 0 after a quiet halt
 * in --board mode, 1 for an emulator error (unknown device, bad input,
 * instruction limit), 10 when the memory-system model reported anything.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "vemu.h"
#include "memsys/memsys.h"

#define EXIT_REPORTED 10

static void usage(FILE *f)
{
	fputs("usage: vivt-emu [options] IMAGE.elf\n"
	      "  --machine NAME     board to emulate (", f);
	machine_print_names(f);
	fputs(")\n"
		"  --ram MB           RAM size (default 128, or the board's size if less)\n"
		"  --board            no semihosting: the SVC goes to the firmware's vector,\n"
		"                     a quiet halt (WFI with IRQs off) ends the run\n"
		"  --no-model         run without the cache/TLB model (devices only)\n"
		"  --dcache-kb N      D-cache size override: 4 to 128 KiB, a power of two\n"
		"                     (the sizes an ARM926EJ-S can have)\n"
		"  --random-repl      seeded random replacement instead of round-robin\n"
		"  --seed N           seed for IRQ jitter, replacement and TLB evictions\n"
		"                     (0 to 4294967295)\n"
		"  --jitter NS        each timer interrupt lands up to NS ns late (seeded;\n"
		"                     0 to 1000000000)\n"
		"  --vcd FILE         marker pins (switch, wake) as a VCD\n"
		"  --image ELF        the image a boot stub copies to RAM (NOR boot): its CP15\n"
		"                     sites are hooked and its symbols name PCs\n"
		"  --input FILE       UART RX input (default: stdin)\n"
		"  --input-line       the input is a serial line: from the moment the driver\n"
		"                     first listens, a byte every character time whether it\n"
		"                     listens or not (a full FIFO loses it: an overrun);\n"
		"                     without it, input waits for the driver, as a person types\n"
		"  --max-insns N      stop with an error after N ns of emulated time (N\n"
		"                     instructions, plus time idled in WFI)\n"
		"  --insn-limit N     stop with an error after exactly N instructions (default\n"
		"                     20000000000; 0: no limit)\n"
		"  --max-reports N    stop the run after N reports (default 10000)\n"
		"  --stats            print the model's counters at the end\n"
		"  --stats-at-lines RE  at each console line matching RE (extended regex),\n"
		"                     print the model's counters since the previous one\n"
		"  --stats-file FILE  the run's figures as key=value lines (for scripts)\n"
		"  --sweep RANGE      land an IRQ before every instruction of a visit to RANGE,\n"
		"                     a function's name or START-END (hex, END excluded): the\n"
		"                     run forks at the visit's arrival; one run with no IRQ must\n"
		"                     pass and counts the visit's instructions inside RANGE\n"
		"                     (callees are not in it: sweep them by name); then one run\n"
		"                     per instruction raises the board's software IRQ line\n"
		"                     (board_soft_irq) right before it and runs to the end under\n"
		"                     the model. A visit ends when the call that arrived returns\n"
		"                     or RANGE's start is reached again. Exit 0 if every run\n"
		"                     passed, 10 if any reported, else 1\n"
		"  --sweep-arrival N  sweep the Nth arrival at RANGE's start (default 1)\n"
		"  --sweep-max N      at most N runs: a longer visit is sampled evenly (default 2000)\n"
		"  --sweep-jobs N     runs at once (default 2)\n"
		"  --sweep-dir DIR    keep each run's console and messages as DIR/step-K.log\n"
		"A number N may be written in digits, in hex (0x...) or with an exponent (1e9).\n", f);
}

static bool parse_u64(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!s || !*s || *s == '-')
		return false;
	v = strtoull(s, &end, 0);
	if (*end)
		return false;
	*out = v;
	return true;
}

enum num_verdict { NUM_OK, NUM_MISSING, NUM_NOT_A_NUMBER, NUM_NOT_WHOLE, NUM_NEGATIVE, NUM_TOO_BIG };

static enum num_verdict parse_hex(const char *p, bool neg, uint64_t *out)
{
	uint64_t v = 0;

	for (; *p; p++) {
		unsigned d = *p >= '0' && *p <= '9' ? (unsigned)(*p - '0') :
			     *p >= 'a' && *p <= 'f' ? (unsigned)(*p - 'a' + 10) :
			     *p >= 'A' && *p <= 'F' ? (unsigned)(*p - 'A' + 10) : 16;

		if (d == 16)
			return NUM_NOT_A_NUMBER;
		if (v >> 60)
			return neg ? NUM_NEGATIVE : NUM_TOO_BIG;
		v = v << 4 | d;
	}
	*out = v;
	return neg && v ? NUM_NEGATIVE : NUM_OK;
}

/*
 * A count as people write one: decimal digits, 0x and hex digits, or a
 * decimal with a fraction or an exponent (1e9, 2.5e6) whose value is whole.
 * NUM_TOO_BIG past 2^64 - 1.
 */
static enum num_verdict parse_count(const char *s, uint64_t *out)
{
	const char *p = s;
	char mant[64];		/* the digits without the point */
	size_t n = 0;
	int exp = 0, frac = 0;
	bool neg = false, point = false;
	uint64_t v = 0;

	if (!s || !*s)
		return NUM_MISSING;
	if (*p == '-' || *p == '+')
		neg = *p++ == '-';
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && p[2])
		return parse_hex(p + 2, neg, out);
	for (; (*p >= '0' && *p <= '9') || (*p == '.' && !point); p++) {
		if (*p == '.') {
			point = true;
			continue;
		}
		if (n == sizeof(mant))
			return neg ? NUM_NEGATIVE : NUM_TOO_BIG;
		mant[n++] = *p;
		frac += point;
	}
	if (!n)
		return NUM_NOT_A_NUMBER;
	if (*p == 'e' || *p == 'E') {
		const char *e = ++p;
		bool down = *p == '-';

		if (*p == '+' || *p == '-')
			e = ++p;
		for (; *p >= '0' && *p <= '9'; p++)
			if (exp < 1000)
				exp = exp * 10 + (*p - '0');
		if (p == e)
			return NUM_NOT_A_NUMBER;
		if (down)
			exp = -exp;
	}
	if (*p)
		return NUM_NOT_A_NUMBER;
	/* The point moves left by the fraction's digits: those must be zeros. */
	for (exp -= frac; exp < 0 && n; exp++)
		if (mant[--n] != '0')
			return NUM_NOT_WHOLE;
	for (size_t i = 0; i < n; i++)
		if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, (uint64_t)(mant[i] - '0'), &v))
			return neg ? NUM_NEGATIVE : NUM_TOO_BIG;
	for (; v && exp > 0; exp--)
		if (__builtin_mul_overflow(v, 10, &v))
			return neg ? NUM_NEGATIVE : NUM_TOO_BIG;
	*out = v;
	return neg && v ? NUM_NEGATIVE : NUM_OK;
}

/*
 * The value of option opt: a whole number from min to max, else false after
 * one line saying what is wrong with it (unit: what it counts, may be "").
 */
static bool count_arg(const char *opt, const char *v, uint64_t min, uint64_t max, const char *unit,
		      uint64_t *out)
{
	const char *sp = *unit ? " " : "";

	switch (parse_count(v, out)) {
	case NUM_OK:
		if (*out >= min && *out <= max)
			return true;
		/* fall through */
	case NUM_NEGATIVE:
	case NUM_TOO_BIG:
		fprintf(stderr, "vivt-emu: %s %s is out of range: %llu to %llu%s%s\n", opt, v,
			(unsigned long long)min, (unsigned long long)max, sp, unit);
		return false;
	case NUM_MISSING:
		fprintf(stderr, "vivt-emu: %s needs a number: %llu to %llu%s%s\n", opt,
			(unsigned long long)min, (unsigned long long)max, sp, unit);
		return false;
	case NUM_NOT_WHOLE:
		fprintf(stderr, "vivt-emu: %s %s is not a whole number: %llu to %llu%s%s\n", opt, v,
			(unsigned long long)min, (unsigned long long)max, sp, unit);
		return false;
	default:
		fprintf(stderr, "vivt-emu: %s '%s' is not a number: %llu to %llu%s%s\n", opt, v,
			(unsigned long long)min, (unsigned long long)max, sp, unit);
		return false;
	}
}

static int parse_args(int argc, char **argv, struct options *o)
{
	const char *ram_arg = NULL, *dcache_arg = NULL;
	uint64_t ram_mb = 0, dcache_kb = 0;
	char unit[64];

	*o = (struct options){ .mach = machine_find("versatilepb"), .ram_mb = 128, .model = true,
			       .max_reports = 10000, .insn_limit = VEMU_DEFAULT_INSN_LIMIT,
			       .sweep_arrival = 1, .sweep_max = 2000, .sweep_jobs = 2 };
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		uint64_t n = 0;
		bool takes = true;

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			exit(0);
		} else if (!strcmp(a, "--board")) {
			o->board_mode = true, takes = false;
		} else if (!strcmp(a, "--no-model")) {
			o->model = false, takes = false;
		} else if (!strcmp(a, "--input-line")) {
			o->input_line = true, takes = false;
		} else if (!strcmp(a, "--random-repl")) {
			o->random_repl = true, takes = false;
		} else if (!strcmp(a, "--stats")) {
			o->stats = true, takes = false;
		} else if (!strcmp(a, "--machine")) {
			o->mach = v ? machine_find(v) : NULL;
			if (!o->mach) {
				fprintf(stderr, "vivt-emu: unknown machine '%s' (known: ", v ? v : "");
				machine_print_names(stderr);
				fprintf(stderr, ")\n");
				return -1;
			}
		} else if (!strcmp(a, "--stats-at-lines")) {
			if (!v || !*v) {
				fprintf(stderr, "vivt-emu: --stats-at-lines needs a regular expression\n");
				return -1;
			}
			o->stats_at_lines = v;
		} else if (!strcmp(a, "--sweep")) {
			if (!v || !*v) {
				fprintf(stderr, "vivt-emu: --sweep needs a function's name or START-END\n");
				return -1;
			}
			o->sweep = v;
		} else if (!strcmp(a, "--sweep-dir")) {
			if (!v || !*v) {
				fprintf(stderr, "vivt-emu: --sweep-dir needs a directory\n");
				return -1;
			}
			o->sweep_dir = v;
		} else if (!strcmp(a, "--sweep-arrival") || !strcmp(a, "--sweep-max") || !strcmp(a, "--sweep-jobs")) {
			if (!parse_u64(v, &n) || n < 1 || n > (strcmp(a, "--sweep-jobs") ? 1000000u : 64u)) {
				fprintf(stderr, "vivt-emu: %s needs a number from 1 to %u, not '%s'\n", a,
					strcmp(a, "--sweep-jobs") ? 1000000u : 64u, v ? v : "");
				return -1;
			}
			*(!strcmp(a, "--sweep-arrival") ? &o->sweep_arrival : !strcmp(a, "--sweep-max") ?
			  &o->sweep_max : &o->sweep_jobs) = (uint32_t)n;
		} else if (!strcmp(a, "--vcd") || !strcmp(a, "--input") || !strcmp(a, "--image") ||
			   !strcmp(a, "--stats-file")) {
			if (!v || !*v) {
				fprintf(stderr, "vivt-emu: %s needs a file name\n", a);
				return -1;
			}
			*(!strcmp(a, "--vcd") ? &o->vcd : !strcmp(a, "--input") ? &o->input :
			  !strcmp(a, "--image") ? &o->inner : &o->stats_file) = v;
		} else if (!strcmp(a, "--ram")) {
			ram_arg = v ? v : "";	/* its range is the board's: checked once --machine is known */
		} else if (!strcmp(a, "--dcache-kb")) {
			dcache_arg = v ? v : "";
		} else if (!strcmp(a, "--seed") || !strcmp(a, "--max-reports")) {
			if (!count_arg(a, v, 0, UINT32_MAX, "", &n))
				return -1;
			*(!strcmp(a, "--seed") ? &o->seed : &o->max_reports) = (uint32_t)n;
		} else if (!strcmp(a, "--jitter")) {
			/* A second late is already no interrupt latency a board has. */
			if (!count_arg(a, v, 0, 1000000000u, "ns", &n))
				return -1;
			o->jitter_ns = (uint32_t)n;
		} else if (!strcmp(a, "--max-insns")) {
			if (!count_arg(a, v, 0, UINT64_MAX, "ns (0: no limit)", &o->max_insns))
				return -1;
		} else if (!strcmp(a, "--insn-limit")) {
			if (!count_arg(a, v, 0, UINT64_MAX, "instructions (0: no limit)", &o->insn_limit))
				return -1;
		} else if (a[0] == '-') {
			fprintf(stderr, "vivt-emu: unknown option '%s'\n", a);
			usage(stderr);
			return -1;
		} else if (!o->elf) {
			o->elf = a, takes = false;
		} else {
			fprintf(stderr, "vivt-emu: one image only ('%s' and '%s')\n", o->elf, a);
			return -1;
		}
		if (takes)
			i++;
	}
	if (!o->elf) {
		usage(stderr);
		return -1;
	}
	if (o->sweep && (o->vcd || o->stats_file)) {
		fprintf(stderr, "vivt-emu: --sweep runs the image many times: %s would be written by every run\n",
			o->vcd ? "--vcd" : "--stats-file");
		return -1;
	}
	if (!o->sweep && (o->sweep_dir || o->sweep_arrival != 1 || o->sweep_max != 2000 || o->sweep_jobs != 2)) {
		fprintf(stderr, "vivt-emu: --sweep-arrival, --sweep-max, --sweep-jobs and --sweep-dir need --sweep\n");
		return -1;
	}
	if (o->sweep && !o->model) {
		fprintf(stderr, "vivt-emu: --sweep needs the model: its runs are judged by it\n");
		return -1;
	}
	snprintf(unit, sizeof(unit), "MiB (%s)", o->mach->name);
	if (!ram_arg && o->ram_mb > o->mach->ram_max_mb)
		o->ram_mb = o->mach->ram_max_mb;
	else if (ram_arg && !count_arg("--ram", ram_arg, 1, o->mach->ram_max_mb, unit, &ram_mb))
		return -1;
	else if (ram_arg)
		o->ram_mb = (uint32_t)ram_mb;
	if (dcache_arg) {
		enum num_verdict nv = parse_count(dcache_arg, &dcache_kb);
		const char *what = nv == NUM_MISSING ? " needs a number" : nv == NUM_NOT_A_NUMBER ?
				   " is not a number" : nv == NUM_NOT_WHOLE ? " is not a whole number" : "";

		if (nv != NUM_OK || dcache_kb < 4 || dcache_kb > 128 || (dcache_kb & (dcache_kb - 1))) {
			fprintf(stderr, "vivt-emu: --dcache-kb%s%s%s: an ARM926EJ-S D-cache is 4, 8, 16, 32, 64 "
				"or 128 KiB\n", nv == NUM_MISSING ? "" : " ", dcache_arg, what);
			return -1;
		}
		o->dcache_kb = (uint32_t)dcache_kb;
	}
	return 0;
}

static void print_stats(struct vemu *vm)
{
	struct ms_stats st;

	ms_get_stats(vm->ms, &st);
	fprintf(vm->out, "vivt-emu: model: loads %llu stores %llu fetches %llu; D line fills %llu, write-backs %llu, "
		"evictions %llu; I line fills %llu; CP15 ops %llu; walks %llu, TLB misses %llu; drains %llu\n",
		(unsigned long long)st.loads, (unsigned long long)st.stores, (unsigned long long)st.fetches,
		(unsigned long long)st.dline_fills, (unsigned long long)st.dwritebacks,
		(unsigned long long)st.devictions, (unsigned long long)st.iline_fills,
		(unsigned long long)st.cp15_ops, (unsigned long long)st.walks,
		(unsigned long long)st.tlb_misses, (unsigned long long)st.wb_drains);
	for (int k = 0; k < MS_REPORT_KINDS; k++)
		if (st.reports[k])
			fprintf(vm->out, "vivt-emu: %llu x %s\n", (unsigned long long)st.reports[k],
				ms_report_kind_name((enum ms_report_kind)k));
}

/* The functions most IRQs landed in (all of them: the stats file). */
static void print_irqs_in(struct vemu *vm)
{
	size_t n = symbols_count(vm->syms), top[4], ntop = 0, funcs = 0;

	for (size_t i = 0; vm->irqs_in && i < n; i++) {
		size_t k;

		if (!vm->irqs_in[i])
			continue;
		funcs++;
		for (k = ntop; k > 0 && vm->irqs_in[top[k - 1]] < vm->irqs_in[i]; k--)
			if (k < 4)
				top[k] = top[k - 1];
		if (k < 4) {
			top[k] = i;
			if (ntop < 4)
				ntop++;
		}
	}
	if (!funcs)
		return;
	fprintf(vm->out, "vivt-emu: IRQs landed in %zu function(s), the most in:", funcs);
	for (size_t k = 0; k < ntop; k++)
		fprintf(vm->out, " %s %llu%s", symbols_name(vm->syms, top[k]),
			(unsigned long long)vm->irqs_in[top[k]], k + 1 < ntop ? "," : "\n");
}

/*
 * The RAM the image was built for (its ram_layout) against the machine's:
 * an image that expects more than --ram gives would read the missing part
 * back as another part's data, and silently. 0 when they agree, or when
 * the image says nothing (an older one, or one a boot stub copies later).
 */
static int check_ram(struct vemu *vm)
{
	struct { uint32_t base, bytes; } lay;
	uint32_t addr, need_mb;

	if (vm->opt.inner || !symbols_find(vm->syms, "ram_layout", &addr) ||
	    !guest_read(vm, addr, &lay, sizeof(lay)))
		return 0;
	if (lay.base != vm->mach->ram_base) {
		fprintf(stderr, "vivt-emu: error: %s was built for RAM at 0x%08x, but the %s machine has it "
			"at 0x%08x: --machine names the board it was built for\n",
			vm->opt.elf, lay.base, vm->mach->name, vm->mach->ram_base);
		return 1;
	}
	if (lay.bytes <= vm->ram_size)
		return 0;
	need_mb = lay.bytes >> 20;
	if (need_mb > vm->mach->ram_max_mb)
		fprintf(stderr, "vivt-emu: error: %s was built for %u MiB of RAM (RAM_MB), more than the %s "
			"machine's %u MiB: build it with RAM_MB=%u or less\n",
			vm->opt.elf, need_mb, vm->mach->name, vm->mach->ram_max_mb, vm->mach->ram_max_mb);
	else
		fprintf(stderr, "vivt-emu: error: %s was built for %u MiB of RAM (RAM_MB), but the machine "
			"has %u MiB: run it with --ram %u\n",
			vm->opt.elf, need_mb, (unsigned)(vm->ram_size >> 20), need_mb);
	return 1;
}

int main(int argc, char **argv)
{
	struct vemu *vm = calloc(1, sizeof(*vm));
	struct timespec t0, t1, c0, c1;
	uint32_t entry;
	int status;
	double secs, cpu;

	if (!vm || parse_args(argc, argv, &vm->opt))
		return 1;
	vm->out = stderr;
	vm->mach = vm->opt.mach;
	vm->ram_size = vm->opt.ram_mb << 20;
	vm->ram = calloc(1, vm->ram_size);
	vm->flash = vm->mach->flash_size ? calloc(1, vm->mach->flash_size) : NULL;
	vm->rng = vm->opt.seed * 2654435761u + 1;
	vm->next_event = UINT64_MAX;
	if (!vm->ram || (vm->mach->flash_size && !vm->flash) || cpu_init(vm))
		return 1;
	if (vm->opt.model) {
		struct ms_config cfg = {
			.ram = vm->ram, .ram_base = vm->mach->ram_base, .ram_size = vm->ram_size,
			.ctype = cpu_cp15(vm, 0, 0, 0, 1),
			.dcache_bytes = vm->opt.dcache_kb << 10,
			.repl = vm->opt.random_repl ? MS_REPL_RANDOM : MS_REPL_ROUND_ROBIN,
			.seed = vm->opt.seed, .report = report_print, .report_ctx = vm,
		};

		vm->ms = ms_new(&cfg);
		if (!vm->ms) {
			fprintf(stderr, "vivt-emu: the memory-system model could not start\n");
			return 1;
		}
	}
	if (vm->opt.stats_at_lines && stats_lines_init(vm, vm->opt.stats_at_lines))
		return 1;
	cpu_add_hooks(vm);
	if (elf_load(vm, vm->opt.elf, &entry, true))
		return 1;
	if (vm->opt.inner && elf_load(vm, vm->opt.inner, &(uint32_t){ 0 }, false))
		return 1;
	vm->syms = symbols_load(vm->opt.inner ? vm->opt.inner : vm->opt.elf);
	if (!symbols_count(vm->syms))
		/* Runs (the segments are there) but reports and counters would be blind. */
		fprintf(stderr, "vivt-emu: warning: %s has no symbol table (truncated or stripped?): "
			"reports will not name functions and no IRQ is counted by the function it lands in\n",
			vm->opt.inner ? vm->opt.inner : vm->opt.elf);
	if (check_ram(vm))
		return 1;
	vm->irqs_in = calloc(symbols_count(vm->syms) + 1, sizeof(*vm->irqs_in));
	if (irqsoff_cpu_init(vm))
		return 1;
	vm->mach->init(vm);
	if (sweep_cpu_init(vm))
		return 1;
	/* Reset state: SVC mode, IRQ and FIQ masked. */
	cpu_set_reg(vm, UC_ARM_REG_CPSR, 0xd3);
	vm->resume_pc = entry;
	runctl_init(vm);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
	status = vemu_run(vm);
	runctl_done();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
	fflush(stdout);
	for (unsigned i = 0; i < vm->ndevs; i++)
		if (vm->devs[i]->finish)
			vm->devs[i]->finish(vm->devs[i]);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	if (vm->sweep.result)	/* a sweep's run: its CPU clock started at its fork */
		c0 = (struct timespec){ 0 };
	cpu = (double)(c1.tv_sec - c0.tv_sec) + (double)(c1.tv_nsec - c0.tv_nsec) / 1e9;
	/* CPU time too: on a shared machine the wall-clock rate says more about the load. */
	fprintf(vm->out, "vivt-emu: %s exit %d, %llu instructions in %.2f s (%.1f M instr/s; %.2f s CPU, %.1f M instr/s), %.3f s emulated, %lu IRQs, %lu reports%s\n",
		vm->opt.elf, status, (unsigned long long)vm->insns, secs,
		secs > 0 ? (double)vm->insns / secs / 1e6 : 0.0, cpu,
		cpu > 0 ? (double)vm->insns / cpu / 1e6 : 0.0, (double)vm->now / 1e9, (unsigned long)vm->irqs_taken, vm->reports,
		vm->ms ? "" : " (no memory-system model)");
	print_irqs_in(vm);
	if (!vm->sweep.result)	/* a sweep run: its verdict is what counts, and this would start addr2line */
		irqsoff_cpu_report(vm);
	if (vm->ms && vm->opt.stats)
		print_stats(vm);
	if (vm->reports)
		status = EXIT_REPORTED;
	status = sweep_finish(vm, status);
	if (vm->opt.stats_file && stats_file_write(vm, vm->opt.stats_file, status, secs, cpu))
		status = 1;
	if (vm->sweep.result) {
		/* A sweep's forked run: freeing what it shares copy-on-write with
		 * its parent would copy it first (uc_close alone took a fifth of a
		 * run); the exit returns it all. */
		fflush(NULL);
		_exit(status);
	}
	stats_lines_free(vm);
	if (vm->ms)
		ms_free(vm->ms);
	uc_close(vm->uc);
	irqsoff_cpu_free(vm);
	free(vm->irqs_in);
	symbols_free(vm->syms);
	return status;
}
