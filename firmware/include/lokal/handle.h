/*
 * Handle checks for the services' objects: each object starts life through
 * its init call (or static initialiser), which stamps a per-type magic word.
 * A NULL, a pointer to something else, or an object never initialised is
 * then reported (thread, address, call) instead of corrupting memory.
 * The check is a load and a compare, so it stays in every build.
 */
#ifndef LOKAL_HANDLE_H
#define LOKAL_HANDLE_H

#define SEMA_MAGIC      0x53454d41u     /* "SEMA" */
#define MUTEX_MAGIC     0x4d555458u     /* "MUTX" */
#define COMPL_MAGIC     0x434f4d50u     /* "COMP" */
#define MSGQ_MAGIC      0x4d534751u     /* "MSGQ" */
#define POOL_MAGIC      0x504f4f4cu     /* "POOL" */
#define EVFL_MAGIC      0x45564653u     /* "EVFS" */
#define TIMER_MAGIC     0x544d5252u     /* "TMRR" */

/* Panic: "<call>(<p>) in thread '<name>': NULL <what>" or "... not an initialised <what>". */
void bad_handle(const char *what, const void *p, const char *call) __attribute__((noreturn, cold));

#define check_handle(p, magic_val, what)                                        \
	do {                                                                    \
		if (__builtin_expect(!(p) || (p)->magic != (magic_val), 0))     \
			bad_handle(what, p, __func__);                          \
	} while (0)

#endif
