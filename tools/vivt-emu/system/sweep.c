/*
 * --sweep: land one IRQ before every instruction of a visit to a range
 * and run the image to its end under the oracle each time.
 *
 * The run goes as usual up to the visit's arrival (sweep-cpu.c stops it
 * there).  Then this process forks: the state of the machine, the model
 * and Unicorn (its registers, RAM, translated code) is the process's
 * memory, so each child is a snapshot restored for free.  The first child
 * runs on with no IRQ landed (the reference): it must pass, and it counts
 * the visit's instructions inside the range (the steps).  Then one child
 * per step k (every step, or an even sample of at most --sweep-max),
 * --sweep-jobs at a time, lands the IRQ right before step k and runs to
 * the end.  A run fails on any model report, any status but 0, or an
 * emulator error; its console and messages go to a file of its own.
 * Everything before the arrival is identical in every run, so step k is
 * the same instruction of the same pass in each of them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "vemu.h"

/* One run's figures, in memory the parent shares with its children. */
struct sweep_result {
	int done;			/* written by the run at its end */
	int status;
	unsigned long reports;
	uint64_t steps;			/* the visit's instructions in the range */
	uint64_t insns;
	int landed;
	uint32_t point_pc;
};

struct job {
	pid_t pid;
	int fd;				/* its console and messages */
	unsigned idx;			/* into the results: 0 the reference */
	uint64_t step;
};

#define MAX_SHOWN	10		/* failing runs described one by one */

static double wall(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int open_log(struct vemu *vm, unsigned idx, uint64_t step)
{
	char path[4096];
	int fd;

	if (vm->opt.sweep_dir) {
		if (mkdir(vm->opt.sweep_dir, 0777) && errno != EEXIST) {
			fprintf(stderr, "vivt-emu: --sweep-dir %s: %s\n", vm->opt.sweep_dir, strerror(errno));
			exit(1);
		}
		if (idx)
			snprintf(path, sizeof(path), "%s/step-%llu.log", vm->opt.sweep_dir, (unsigned long long)step);
		else
			snprintf(path, sizeof(path), "%s/reference.log", vm->opt.sweep_dir);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	} else {
		snprintf(path, sizeof(path), "%s/vivt-emu-sweep-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		fd = mkstemp(path);
		if (fd >= 0)
			unlink(path);
	}
	if (fd < 0) {
		fprintf(stderr, "vivt-emu: --sweep: cannot create %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return fd;
}

/*
 * Fork one run: true in the child, which returns into the run loop set to
 * land its IRQ before step `step` (or none for the reference).
 */
static bool fork_run(struct vemu *vm, struct sweep_result *table, struct job *j, uint64_t insn_limit)
{
	fflush(stdout);
	fflush(stderr);
	j->fd = open_log(vm, j->idx, j->step);
	j->pid = fork();
	if (j->pid < 0) {
		fprintf(stderr, "vivt-emu: --sweep: fork: %s\n", strerror(errno));
		exit(1);
	}
	if (j->pid)
		return false;
	dup2(j->fd, STDOUT_FILENO);
	dup2(j->fd, STDERR_FILENO);
	close(j->fd);
	symbols_after_fork(vm->syms);
	vm->sweep.result = &table[j->idx];
	vm->sweep.target = j->idx ? (int64_t)j->step : -1;
	if (insn_limit)
		vm->opt.insn_limit = insn_limit;
	return true;
}

/* The first line of a failing run's log that says why: a report, a failed case, an error. */
static void first_reason(int fd, char *buf, size_t len)
{
	static const char *const keys[] = { "vivt-emu: REPORT", "*** ", "not ok", "vivt-emu: error", "panic",
					    "WARNING" };
	FILE *f = fdopen(dup(fd), "r");
	char line[512];

	snprintf(buf, len, "(nothing in its log says why)");
	if (!f)
		return;
	for (unsigned k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		rewind(f);
		while (fgets(line, sizeof(line), f))
			if (strstr(line, keys[k])) {
				line[strcspn(line, "\n")] = 0;
				snprintf(buf, len, "%s", line);
				fclose(f);
				return;
			}
	}
	fclose(f);
}

static const char *where(struct vemu *vm, uint32_t pc, char *buf, size_t len)
{
	uint32_t off = 0;
	const char *sym = symbols_lookup(vm->syms, pc, &off);

	snprintf(buf, len, "0x%08x %s+0x%x", pc, sym ? sym : "?", off);
	return buf;
}

/* Wait for one run; false if it failed (then it says why, the first MAX_SHOWN times). */
static bool reap(struct vemu *vm, struct sweep_result *table, struct job *jobs, unsigned *njobs,
		 unsigned *shown)
{
	int ws;
	pid_t pid = wait(&ws);
	struct job j;
	struct sweep_result *r;
	char why[600], at[160];
	bool ok;
	unsigned i;

	if (pid < 0) {
		fprintf(stderr, "vivt-emu: --sweep: wait: %s\n", strerror(errno));
		exit(1);
	}
	for (i = 0; i < *njobs && jobs[i].pid != pid; i++)
		;
	if (i == *njobs)
		return true;	/* not one of ours (an addr2line) */
	j = jobs[i];
	jobs[i] = jobs[--*njobs];
	r = &table[j.idx];
	if (!r->done) {		/* it died before main's end: say how */
		r->status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
		if (!r->status)
			r->status = 1;
	}
	ok = r->done && r->status == 0 && !r->reports && (!j.idx || r->landed != -1);
	if (!ok && (*shown)++ < MAX_SHOWN) {
		first_reason(j.fd, why, sizeof(why));
		if (!j.idx)
			fprintf(stderr, "vivt-emu: sweep: the reference run (no IRQ landed) fails: exit %d: %s\n",
				r->status, why);
		else if (r->done && r->landed == -1)
			fprintf(stderr, "vivt-emu: sweep: step %llu was never reached (the run went another way "
				"than the reference's)\n", (unsigned long long)j.step);
		else
			fprintf(stderr, "vivt-emu: sweep: IRQ before step %llu (%s%s): exit %d, %lu reports: %s\n",
				(unsigned long long)j.step, where(vm, r->point_pc, at, sizeof(at)),
				r->landed == 0 ? ", held while IRQs were masked" : r->landed == 2 ? ", line masked" : "",
				r->status, r->reports, why);
	}
	close(j.fd);
	return ok;
}

void sweep_arrive(struct vemu *vm)
{
	struct sweep_state *sw = &vm->sweep;
	struct sweep_result *table;
	struct job jobs[64], ref = { 0 };
	unsigned njobs = 0, shown = 0, maxjobs = vm->opt.sweep_jobs;
	uint64_t steps, stride, runs, failed = 0, reports = 0, taken = 0, held = 0, masked = 0, limit;
	double t0 = wall();
	char at[160];

	if (maxjobs > sizeof(jobs) / sizeof(jobs[0]))
		maxjobs = sizeof(jobs) / sizeof(jobs[0]);
	table = mmap(NULL, ((size_t)vm->opt.sweep_max + 1) * sizeof(*table), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (table == MAP_FAILED) {
		fprintf(stderr, "vivt-emu: --sweep: mmap: %s\n", strerror(errno));
		exit(1);
	}
	fprintf(stderr, "vivt-emu: sweep: arrival %u at %s after %llu instructions\n", vm->opt.sweep_arrival,
		where(vm, sw->start, at, sizeof(at)), (unsigned long long)vm->insns);
	if (fork_run(vm, table, &ref, 0))
		return;
	jobs[njobs++] = ref;
	if (!reap(vm, table, jobs, &njobs, &shown)) {
		fprintf(stderr, "vivt-emu: sweep: nothing swept: the run must pass before IRQs are landed in it%s%s\n",
			vm->opt.sweep_dir ? " (see " : "", vm->opt.sweep_dir ? vm->opt.sweep_dir : "");
		exit(1);
	}
	steps = table[0].steps;
	stride = (steps + vm->opt.sweep_max - 1) / vm->opt.sweep_max;
	if (!stride)
		stride = 1;
	/* A landed IRQ costs some work; a run twice as long as the reference's rest has hung. */
	limit = table[0].insns + (table[0].insns - vm->insns) + 20000000u;
	if (vm->opt.insn_limit && vm->opt.insn_limit < limit)
		limit = 0;	/* the user's own limit stays */
	runs = 0;
	for (uint64_t k = 0; k < steps; k += stride) {
		struct job j = { .idx = (unsigned)++runs, .step = k };

		while (njobs >= maxjobs)
			failed += !reap(vm, table, jobs, &njobs, &shown);
		if (fork_run(vm, table, &j, limit))
			return;
		jobs[njobs++] = j;
	}
	while (njobs)
		failed += !reap(vm, table, jobs, &njobs, &shown);
	for (uint64_t i = 1; i <= runs; i++) {
		reports += table[i].reports;
		taken += table[i].landed == 1;
		held += table[i].landed == 0;
		masked += table[i].landed == 2;
	}
	if (shown > MAX_SHOWN)
		fprintf(stderr, "vivt-emu: sweep: ... and %u more failing runs%s%s\n", shown - MAX_SHOWN,
			vm->opt.sweep_dir ? ": see " : "", vm->opt.sweep_dir ? vm->opt.sweep_dir : "");
	fprintf(stderr, "vivt-emu: sweep %s [0x%08x, 0x%08x) arrival %u: %llu instructions in the visit, "
		"%llu runs (%s), %llu IRQs taken at their instruction, %llu held while IRQs were masked, "
		"%llu on a masked line, %llu failing runs, %llu reports, %.1f s\n",
		vm->opt.sweep, sw->start, sw->end, vm->opt.sweep_arrival, (unsigned long long)steps,
		(unsigned long long)runs, stride == 1 ? "every instruction" : "sampled", (unsigned long long)taken,
		(unsigned long long)held, (unsigned long long)masked, (unsigned long long)failed,
		(unsigned long long)reports, wall() - t0);
	if (stride > 1)
		fprintf(stderr, "vivt-emu: sweep: sampled every %llu-th instruction (--sweep-max %u)\n",
			(unsigned long long)stride, vm->opt.sweep_max);
	fflush(stdout);
	exit(failed ? (reports ? 10 : 1) : 0);
}

int sweep_finish(struct vemu *vm, int status)
{
	struct sweep_state *sw = &vm->sweep;
	struct sweep_result *r = sw->result;

	if (r) {
		r->status = status;
		r->reports = vm->reports;
		r->steps = sw->steps;
		r->insns = vm->insns;
		r->landed = sw->landed;
		r->point_pc = sw->point_pc;
		r->done = 1;
		return status;
	}
	if (sw->phase == SWEEP_WAIT) {
		fprintf(vm->out, "vivt-emu: error: --sweep %s: the run ended (exit %d) before arrival %u at "
			"0x%08x (it arrived %llu times): nothing swept\n", vm->opt.sweep, status,
			vm->opt.sweep_arrival, sw->start, (unsigned long long)sw->arrivals);
		return 1;
	}
	return status;
}
