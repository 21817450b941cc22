/*
 * Handle checks for the services' objects: each object starts life through
 * its init call (or static initialiser), which stamps a per-type magic word.
 * A NULL, a pointer to something else, or an object never initialised is
 * then reported (thread, address, call) instead of corrupting memory.
 * The check is a load and a compare, so it stays in every build.
 */
#ifndef LOKAL_HANDLE_H
#define LOKAL_HANDLE_H

/* One byte in the top bits: an ARM immediate, compared without a literal load. */
#define SEMA_MAGIC      0x53000000u     /* 'S' */
#define MUTEX_MAGIC     0x4d000000u     /* 'M' */
#define COMPL_MAGIC     0x43000000u     /* 'C' */
#define MSGQ_MAGIC      0x51000000u     /* 'Q' */
#define POOL_MAGIC      0x50000000u     /* 'P' */
#define EVFL_MAGIC      0x45000000u     /* 'E' */
#define TIMER_MAGIC     0x54000000u     /* 'T' */

/*
 * Panic: "<call>(<p>) in thread '<name>': NULL <what>" or "... not an
 * initialised <what>". p first: the object is in r0 at the call sites,
 * so a fast path moves no register to report it.
 */
void bad_handle(const void *p, const char *what, const char *call) __attribute__((noreturn, cold));

#define check_handle(p, magic_val, what)                                        \
	do {                                                                    \
		if (__builtin_expect(!(p) || (p)->magic != (magic_val), 0))     \
			bad_handle(p, what, __func__);                          \
	} while (0)

#endif
