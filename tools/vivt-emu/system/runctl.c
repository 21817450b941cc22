/*
 * Run control from outside the guest: a signal (Ctrl-C, timeout's TERM)
 * ends the run the orderly way, so the console and the summary reach
 * their files, a run stops at an instruction limit, and a long run shows
 * its progress on a terminal.
 */
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "vemu.h"

/* Checked every this many instructions: many times a second even when idle. */
#define CHECK_EVERY     (1u << 20)

static volatile sig_atomic_t caught;
static bool progress;
static double last_shown, started;

static void on_signal(int sig)
{
	caught = sig;
}

static double wall_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void runctl_init(struct vemu *vm)
{
	/* SA_RESETHAND: a second Ctrl-C stops a run that does not stop. */
	struct sigaction sa = { .sa_handler = on_signal, .sa_flags = SA_RESETHAND };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A console line is out as soon as it ends, even if the run is then killed. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	/* Progress only where someone watches and it cannot mix with the console. */
	progress = isatty(STDERR_FILENO) && !isatty(STDOUT_FILENO);
	started = last_shown = wall_seconds();
	vm->runctl_next = CHECK_EVERY;
}

void runctl_check(struct vemu *vm)
{
	double now;

	vm->runctl_next = vm->insns + CHECK_EVERY;
	if (caught) {
		vemu_fail(vm, "interrupted by signal %d (%s) after %.3f s emulated, %llu instructions",
			  (int)caught, caught == SIGINT ? "Ctrl-C" : caught == SIGTERM ? "SIGTERM" : "SIGHUP",
			  (double)vm->now / 1e9, (unsigned long long)vm->insns);
		vm->exit_status = 128 + caught;
		return;
	}
	if (vm->opt.insn_limit && vm->insns >= vm->opt.insn_limit) {
		vemu_fail(vm, "stopped at %s of %llu instructions (%.3f s emulated, pc 0x%08x): "
			  "--insn-limit N raises it, 0 for none",
			  vm->opt.insn_limit == VEMU_DEFAULT_INSN_LIMIT ? "the default limit" : "--insn-limit",
			  (unsigned long long)vm->opt.insn_limit, (double)vm->now / 1e9, vm->block_pc);
		return;
	}
	if (!progress)
		return;
	now = wall_seconds();
	if (now - last_shown < 1.0)
		return;
	last_shown = now;
	fprintf(stderr, "\rvivt-emu: %.0f s: %.3f s emulated, %llu M instructions ", now - started,
		(double)vm->now / 1e9, (unsigned long long)(vm->insns >> 20));
}

void runctl_done(void)
{
	if (progress && last_shown > started)
		fprintf(stderr, "\r\033[K");
}
