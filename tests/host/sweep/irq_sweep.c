/*
 * The host IRQ sweep's engine (see irq_sweep.h).
 *
 * Landing points: arch/sim calls sim_irq_at at each of its interrupt
 * points (an unmask by arch_local_irq_restore/enable and the scheduler's
 * interrupt windows, halfway through and after a D-cache flush, before a
 * PTE write, after a TLB invalidate), and the link wraps preempt_enable()
 * (host.mk) so that the last instant of an atomic section, where a
 * wake-up an interrupt made is served, is a point too. A point counts
 * when interrupts are on and no handler runs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <lokal/mm.h>
#include <lokal/platform.h>
#include <lokal/preempt.h>
#include <lokal/sched-internal.h>
#include <lokal/thread.h>
#include <asm/irqflags.h>
#include <asm/sim.h>
#include "host_test.h"
#include "irq_sweep.h"

enum sweep_mode { SWEEP_OFF, SWEEP_COUNT, SWEEP_FIRE, SWEEP_FIRED };

static enum sweep_mode mode;
static unsigned int points_seen, target;
static const struct sweep_action *action;
static bool in_action, failed;
static const struct thread *due_thread;        /* a preemptible thread seen with a switch due */
static unsigned long due_switches;
bool sweep_fired;

static const char *const sim_point_names[SIM_NR_IRQ_POINTS] = {
	[SIM_IRQ_AFTER_TLB_FLUSH] = "after a TLB invalidate",
	[SIM_IRQ_IN_FLUSH] = "inside a D-cache flush",
	[SIM_IRQ_AFTER_FLUSH] = "after a D-cache flush",
	[SIM_IRQ_BEFORE_PTE_WRITE] = "before a PTE write",
	[SIM_IRQ_AT_UNMASK] = "at an unmask",
};

void sweep_fail(const char *fmt, ...)
{
	va_list ap;

	failed = true;
	printf("SWEEP FAIL (thread '%s'): ", current ? current->name : "?");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static bool on_ready_queue(const struct thread *t)
{
	const struct list_head *q = &pcpu_hot.rq.queue[t->prio], *pos;

	for (pos = q->next; pos != q; pos = pos->next)
		if (pos == &t->node)
			return true;
	return false;
}

static const char *const state_names[] = {
	[THREAD_READY] = "READY", [THREAD_BLOCKED] = "BLOCKED", [THREAD_SLEEPING] = "SLEEPING",
	[THREAD_DEAD] = "DEAD", [THREAD_SUSPENDED] = "SUSPENDED",
};

void sweep_check_sched(void)
{
	unsigned long flags = arch_local_irq_save();
	const struct list_head *pos;

	list_for_each(pos, &all_threads) {
		const struct thread *t = list_entry(pos, struct thread, all);

		if (t != current && t->state == THREAD_READY && !t->suspended && !on_ready_queue(t))
			sweep_fail("scheduler: thread '%s' (priority %d) is READY but on no ready "
				   "queue (bitmap bit %s): it never runs again", t->name, t->prio,
				   (pcpu_hot.rq.bitmap >> t->prio) & 1u ? "set" : "clear");
	}
	for (int p = 0; p < NR_PRIO; p++) {
		const struct list_head *q = &pcpu_hot.rq.queue[p];
		bool bit = (pcpu_hot.rq.bitmap >> p) & 1u;

		if (list_empty(q) == bit)
			sweep_fail("scheduler: ready queue %d is %sempty but its bitmap bit is %s",
				   p, bit ? "" : "not ", bit ? "set" : "clear");
		for (pos = q->next; pos != q; pos = pos->next) {
			const struct thread *t = list_entry(pos, struct thread, node);

			if (t == current || t->state != THREAD_READY || t->suspended)
				sweep_fail("scheduler: thread '%s' is on ready queue %d but is %s%s%s", t->name,
					   p, t == current ? "running, " : "",
					   state_names[t->state], t->suspended ? ", suspended" : "");
		}
	}
	arch_local_irq_restore(flags);
}

/* An interrupt may land here: count it, fire the run's action at its point, check the running thread. */
static void land(const char *where)
{
	if (mode == SWEEP_OFF || in_action || in_irq() || arch_irqs_disabled())
		return;
	/* A thread suspended by another never runs; its own suspension switches with the count raised. */
	if (current->suspended && preempt_count() == 0)
		sweep_fail("scheduler: thread '%s' runs while suspended (state %s)", current->name,
			   state_names[current->state]);
	/*
	 * A switch that is due is made at the preemption point that follows
	 * the wake-up (preempt_check_resched(), irq_exit(), preempt_enable()):
	 * a preemptible thread that passes a second landing point with one
	 * still due, and has not left the CPU since the first, missed it.
	 */
	if (preempt_count() == 0 && need_resched()) {
		if (due_thread == current && due_switches == current->switches_in)
			sweep_fail("scheduler: thread '%s' (priority %d) stays preemptible on the CPU "
				   "with a switch due (need_resched 0x%x) since an earlier point, %s",
				   current->name, current->prio, (unsigned int)need_resched(), where);
		due_thread = current;
		due_switches = current->switches_in;
	} else {
		due_thread = NULL;
	}
	if (mode == SWEEP_FIRED)
		return;
	points_seen++;
	if (mode != SWEEP_FIRE || points_seen != target)
		return;
	mode = SWEEP_FIRED;
	printf("SWEEP IRQ '%s' at point %u (%s), thread '%s', preempt count 0x%x\n", action->name,
	       points_seen, where, current->name, preempt_count());
	{
		unsigned long flags = arch_local_irq_save();

		irq_enter();
		in_action = true;
		action->fire();
		in_action = false;
		sweep_fired = true;
		irq_exit();     /* may switch, as an interrupt's exit does */
		arch_local_irq_restore(flags);
	}
}

static void sim_point(enum sim_irq_point where, unsigned long vaddr)
{
	(void)vaddr;
	land(sim_point_names[where]);
}

void __real_preempt_enable(void);
void __wrap_preempt_enable(void);
void __wrap_preempt_enable(void)
{
	if ((preempt_count() & PREEMPT_MASK) == 1)
		land("at the preempt_enable() ending an atomic section");
	__real_preempt_enable();
}

/* A run that never ends: say who was where, and stop. */
static void on_alarm(int sig)
{
	const struct list_head *pos;

	(void)sig;
	printf("SWEEP FAIL: the run did not end in 10 s (current '%s')\n", current->name);
	list_for_each(pos, &all_threads) {
		const struct thread *t = list_entry(pos, struct thread, all);

		printf("  thread '%s' priority %d %s%s%s\n", t->name, t->prio, state_names[t->state],
		       t->suspended ? " suspended" : "",
		       t->state == THREAD_READY && t != current && !on_ready_queue(t) ?
		       " ON NO READY QUEUE" : "");
	}
	fflush(stdout);
	_exit(3);
}

/* The child: a fresh machine, the scenario, the checks; exit 0 if all hold. */
static void run_child(const struct sweep_scenario *s, unsigned int k, const struct sweep_action *a)
{
	setvbuf(stdout, NULL, _IONBF, 0);      /* in order with the model's reports on stderr */
	/* The machine is the parent's fresh one: its RAM is put back after each run (ram_restore()). */
	sim_install_fault_handler();
	signal(SIGALRM, on_alarm);
	alarm(10);
	failed = false;
	due_thread = NULL;
	sweep_fired = false;
	points_seen = 0;
	target = k;
	action = a;
	mode = k ? SWEEP_FIRE : SWEEP_COUNT;
	sim_irq_at = sim_point;
	s->body();
	mode = SWEEP_OFF;
	sim_irq_at = NULL;
	if (s->check)
		s->check();
	sweep_check_sched();
	{
		const char *other = host_expectations();

		if (other)
			sweep_fail("%s", other);
	}
	if (sim_violations(SIM_NR_VIOLATIONS))
		sweep_fail("cache model: %u report(s), last: %s", sim_violations(SIM_NR_VIOLATIONS),
			   sim_last_violation());
	if (k && !sweep_fired)
		printf("SWEEP NOTE: point %u not reached\n", k);
	printf("SWEEP POINTS %u\n", points_seen);
	fflush(stdout);
	_exit(failed ? 1 : 0);
}

/*
 * RAM is the one thing a run shares with the test that forked it (a
 * MAP_SHARED memfd, sim.c): its pages that hold data at the start are
 * kept, and after each run RAM is emptied and they are put back.
 */
struct ram_page {
	off_t off;
	uint8_t data[PAGE_SIZE];
};
static struct ram_page *ram_saved;
static size_t ram_nsaved;

static void ram_snapshot(void)
{
	off_t off = 0, end;

	free(ram_saved);
	ram_saved = NULL;
	ram_nsaved = 0;
	while ((off = lseek(sim_ram_fd, off, SEEK_DATA)) >= 0) {
		end = lseek(sim_ram_fd, off, SEEK_HOLE);
		for (; off < end; off += PAGE_SIZE) {
			ram_saved = realloc(ram_saved, (ram_nsaved + 1) * sizeof(*ram_saved));
			if (!ram_saved)
				abort();
			ram_saved[ram_nsaved].off = off;
			memcpy(ram_saved[ram_nsaved++].data, sim_ram + off, PAGE_SIZE);
		}
	}
}

static void ram_restore(void)
{
	if (fallocate(sim_ram_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0, (off_t)RAM_SIZE) < 0) {
		perror("sweep: emptying RAM");
		abort();
	}
	for (size_t i = 0; i < ram_nsaved; i++)
		memcpy(sim_ram + ram_saved[i].off, ram_saved[i].data, PAGE_SIZE);
}

/* Fork one run; its output (stdout and stderr) into out. Returns its exit status (128+signal if killed). */
static int fork_run(const struct sweep_scenario *s, unsigned int k, const struct sweep_action *a,
		    char *out, size_t outlen)
{
	int fd[2], status;
	size_t n = 0;
	ssize_t r;
	pid_t pid;

	fflush(stdout);
	fflush(stderr);
	if (pipe(fd) < 0 || (pid = fork()) < 0) {
		perror("sweep: fork");
		abort();
	}
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], STDOUT_FILENO);
		dup2(fd[1], STDERR_FILENO);
		close(fd[1]);
		run_child(s, k, a);
	}
	close(fd[1]);
	while ((r = read(fd[0], out + n, n + 1 < outlen ? outlen - n - 1 : 0)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		n += (size_t)r;
		if (n + 1 >= outlen) {  /* keep the tail: drop the first half */
			memmove(out, out + outlen / 2, n - outlen / 2);
			n -= outlen / 2;
		}
	}
	out[n] = '\0';
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	ram_restore();
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* The lines of out worth keeping in a report: the sweep's, the model's and any panic. */
static void keep_lines(char *dst, size_t len, const char *out)
{
	size_t n = strlen(dst);
	const char *line = out;
	unsigned int model_lines = 0;

	while (*line && n + 1 < len) {
		const char *end = strchr(line, '\n');
		int l = (int)(end ? (size_t)(end - line) : strlen(line));
		bool keep;

		if (!strncmp(line, "MODEL VIOLATION", 15))
			keep = ++model_lines <= 3;      /* the first say it; SWEEP FAIL counts them */
		else
			keep = (!strncmp(line, "SWEEP", 5) && strncmp(line, "SWEEP POINTS", 12)) ||
			       strstr(line, "panic") || strstr(line, "***") || strstr(line, "ERROR");
		if (keep)
			n += (size_t)snprintf(dst + n, len - n, "  | %.*s\n", l, line);
		if (n >= len)
			n = len - 1;
		line += l + (end ? 1 : 0);
	}
}

unsigned int sweep_scenario(const struct sweep_scenario *s, unsigned int max_reports,
			    unsigned int stride, struct sweep_result *res)
{
	static char out[16384];
	static const struct sweep_action none = { "none", NULL };
	const char *p;
	int rc;

	memset(res, 0, sizeof(*res));
	ram_snapshot();
	/* SWEEP_RUN=K:A (A an action's index): that one run of each scenario, its whole output shown. */
	if (getenv("SWEEP_RUN")) {
		unsigned int k = 0, a = 0;

		sscanf(getenv("SWEEP_RUN"), "%u:%u", &k, &a);
		rc = fork_run(s, k, k && a < s->nactions ? &s->actions[a] : &none, out, sizeof(out));
		printf("--- %s, run %u:%u, status %d:\n%s---\n", s->name, k, a, rc, out);
		res->runs = 1;
		res->points = 1;
		res->reports = rc != 0;
		snprintf(res->first, sizeof(res->first), "SWEEP_RUN status %d\n", rc);
		return res->reports;
	}
	rc = fork_run(s, 0, &none, out, sizeof(out));
	res->runs = 1;
	p = strstr(out, "SWEEP POINTS ");
	res->points = p ? (unsigned int)strtoul(p + 13, NULL, 10) : 0;
	if (rc != 0) {
		res->reports++;
		snprintf(res->first, sizeof(res->first),
			 "%s: the run without interrupt fails (status %d):\n", s->name, rc);
		keep_lines(res->first, sizeof(res->first), out);
	}
	for (unsigned int k = 1; k <= res->points && res->reports < max_reports; k += stride) {
		for (unsigned int a = 0; a < s->nactions && res->reports < max_reports; a++) {
			rc = fork_run(s, k, &s->actions[a], out, sizeof(out));
			res->runs++;
			if (rc == 0)
				continue;
			if (!res->reports++) {
				snprintf(res->first, sizeof(res->first),
					 "%s: IRQ '%s' at point %u of %u fails the run (status %d):\n",
					 s->name, s->actions[a].name, k, res->points, rc);
				keep_lines(res->first, sizeof(res->first), out);
			}
		}
	}
	return res->reports;
}
