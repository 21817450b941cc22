/*
 * The serial console shell: a thread reading the console's receive ring,
 * a line editor, and a table of commands (commands.c). A command is one
 * function in its own file plus one line in the table.
 */
#ifndef SHELL_H
#define SHELL_H

#include <stdbool.h>
#include <stddef.h>

#define SHELL_LINE_MAX  128     /* bytes in a line, with its terminating NUL */
#define SHELL_ARGS_MAX  8
#define SHELL_HISTORY   8
#define SHELL_PROMPT    "lokal> "

/* Argument ranges, named in the usage lines (commands.c) and checked by the commands. */
#define SHELL_WAKES_MAX         100000  /* bench wakeup: wake-ups per mode */
#define SHELL_MARKER_HZ_MAX     100000  /* marker test: square-wave rate */
#define SHELL_STR(x)            SHELL_STR_(x)
#define SHELL_STR_(x)           #x

/* What a command returns: done, or "print my usage line". */
#define SHELL_OK        0
#define SHELL_USAGE     (-1)

struct shell_cmd {
	const char *name;
	const char *usage;              /* arguments, e.g. "switch|kmap|wakeup [N]" */
	const char *help;               /* one line: what it does */
	int (*run)(int argc, char **argv);
};

/* The table, NULL-terminated by name (commands.c). */
extern const struct shell_cmd shell_cmds[];
const struct shell_cmd *shell_find(const char *name);

/* ---- line editor (readline.c) ---- */

/*
 * Read one line into buf (SHELL_LINE_MAX bytes) with echo, backspace,
 * Ctrl-U, Ctrl-C and history. Returns its length, or -1 when the line was
 * abandoned (Ctrl-C) or refused (too long); the reason is already printed.
 */
int shell_readline(char *buf);

/* ---- console helpers (input.c) ---- */

#define KEY_CTRL_C      0x03

/* Next input byte, sleeping a tick at a time while there is none. */
int shell_getc(void);
/*
 * For long commands: true once a key was pressed (any key if any_key,
 * else only Ctrl-C). Never blocks; other bytes are dropped and counted.
 */
bool shell_key_pressed(bool any_key);
/* Input bytes thrown away while a command ran. */
unsigned long shell_ignored_bytes(void);
/* Before a long command: start counting its ignored bytes. */
void shell_track_ignored(void);
/* After it: say on the console how many bytes were ignored, if any. */
void shell_report_ignored(void);

/* Parse a decimal argument in [min, max]; false if it is not one. */
bool shell_parse_ulong(const char *s, unsigned long min, unsigned long max,
		       unsigned long *out);

/* ---- jobs (job.c): long commands run in the main thread ---- */

/*
 * Run fn(arg) in the main thread (priority PRIO_MAIN, as in the bench and
 * demo images) while this thread watches the console. Ctrl-C sets *stop
 * (if stop is not NULL) for fn to honour; other input is dropped. Returns
 * fn's value. The shell thread prints nothing until fn returns.
 */
int shell_run_job(int (*fn)(void *arg), void *arg, volatile bool *stop);
/* The main thread's loop: run jobs the shell hands over. Never returns. */
void shell_job_loop(void) __attribute__((noreturn));

/* ---- thread table (threads.c) ---- */
#define SHELL_MAX_THREADS 32
struct thread_info;
/* A snapshot of the thread table in a static buffer (*out); returns the
 * number of threads, of which at most SHELL_MAX_THREADS are in *out. */
unsigned int shell_threads(struct thread_info **out);

/* ---- bench (cmd_bench.c) ---- */
/* Take the bench's highmem pages if the build has them; else bench refuses. */
void shell_bench_init(void);

/* ---- stats baseline (cmd_stats.c) ---- */
void shell_stats_init(void);

#endif
