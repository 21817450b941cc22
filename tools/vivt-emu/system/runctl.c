/*
 * Run control from outside the guest: a signal (Ctrl-C, timeout's TERM)
 * ends the run the orderly way, so the console and the summary reach
 * their files, and a long run shows its progress on a terminal.  (The
 * instruction limit is the block hook's, cpu.c: it stops to the instruction.)
 */
#include <signal.h>
#include <time.h>
#include <unistd.h>
#include "vemu.h"

/* Checked every this many instructions: many times a second even when idle. */
#define CHECK_EVERY     (1u << 20)

/* Waited for after the first signal before another one ends the process at once. */
#define STUCK_SECONDS	5

static volatile sig_atomic_t caught;
static struct timespec caught_at;
static bool progress;
static double last_shown, started;

/*
 * The first INT, TERM or HUP asks for the orderly stop.  More of them are
 * the same request (timeout(1) sends TERM to the emulator and again to its
 * process group, an impatient person presses Ctrl-C twice) while the stop
 * is under way; only one that comes STUCK_SECONDS later ends the process
 * at once, for a run that did not stop.  Async-signal-safe calls only.
 */
static void on_signal(int sig)
{
	static const char msg[] = "\nvivt-emu: the run did not stop in order: killed by a signal again\n";
	struct timespec now;
	ssize_t r;

	clock_gettime(CLOCK_MONOTONIC, &now);
	if (!caught) {
		caught_at = now;
		caught = sig;
		return;
	}
	if (now.tv_sec - caught_at.tv_sec < STUCK_SECONDS)
		return;
	r = write(STDERR_FILENO, msg, sizeof(msg) - 1);
	(void)r;
	_exit(128 + sig);
}

static double wall_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void runctl_init(struct vemu *vm)
{
	struct sigaction sa = { .sa_handler = on_signal };

	/* One handler at a time: the first signal's time is set before another looks. */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGINT);
	sigaddset(&sa.sa_mask, SIGTERM);
	sigaddset(&sa.sa_mask, SIGHUP);
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

bool runctl_signalled(struct vemu *vm)
{
	if (!caught)
		return false;
	vemu_fail(vm, "interrupted by signal %d (%s) after %.3f s emulated, %llu instructions",
		  (int)caught, caught == SIGINT ? "Ctrl-C" : caught == SIGTERM ? "SIGTERM" : "SIGHUP",
		  (double)vm->now / 1e9, (unsigned long long)vm->insns);
	vm->exit_status = 128 + caught;
	return true;
}

void runctl_check(struct vemu *vm)
{
	double now;

	vm->runctl_next = vm->insns + CHECK_EVERY;
	if (runctl_signalled(vm) || !progress)
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
