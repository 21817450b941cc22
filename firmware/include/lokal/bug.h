/*
 * Diagnostics. A misuse of a kernel API must never corrupt silently:
 * BUG()/panic() print what went wrong (thread, address, caller) and stop
 * the system with a non-zero status; WARN() prints once per call site and
 * goes on.
 */
#ifndef LOKAL_BUG_H
#define LOKAL_BUG_H

#include <stdbool.h>

/* Print "PANIC: <msg>" with the current thread and stop. Never returns. */
void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Print "WARNING: <msg>" with the current thread; execution continues. */
void warn_printf(const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define BUG_ON(cond)                                                    \
	do {                                                            \
		if (__builtin_expect(!!(cond), 0))                      \
			panic("BUG at %s:%d: %s", __FILE__, __LINE__, #cond); \
	} while (0)

#define WARN(cond, ...)                                                 \
	({                                                              \
		bool __w = !!(cond);                                    \
		if (__builtin_expect(__w, 0))                           \
			warn_printf(__FILE__, __LINE__, __VA_ARGS__);   \
		__w;                                                    \
	})

#define WARN_ON(cond) WARN(cond, "%s", #cond)

#define WARN_ON_ONCE(cond)                                              \
	({                                                              \
		static bool __warned;                                   \
		bool __w = !!(cond);                                    \
		if (__builtin_expect(__w && !__warned, 0)) {            \
			__warned = true;                                \
			warn_printf(__FILE__, __LINE__, "%s", #cond);   \
		}                                                       \
		__w;                                                    \
	})

/* Number of warnings printed since boot (tests read it). */
extern unsigned int warn_count;

/*
 * Non-zero while the kernel's own diagnostic (panic, WARN, a fault report)
 * prints: console output from an interrupt handler is allowed then.
 */
extern unsigned int oops_in_progress;

#endif
