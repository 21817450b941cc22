/*
 * newlib made safe for preempted threads.
 *
 * This newlib (Debian's arm-none-eabi 3.3) is built without retargetable
 * locking: its FILE locks compile to nothing and the only lock hooks it
 * calls are __malloc_lock()/__malloc_unlock() (empty in libc.a, replaced
 * here). So:
 *   - the heap (malloc, calloc, realloc, free, and newlib's own internal
 *     allocations) is serialised by a recursive kernel mutex, through the
 *     two hooks;
 *   - stdout/stderr output is serialised by a second recursive mutex taken
 *     around each of the calls that write to a shared stream (the linker's
 *     --wrap, see WRAPPED_STDIO in the Makefile): printf, vprintf,
 *     fprintf, vfprintf, puts, putchar, putc, fputc, fputs, fwrite, fflush.
 *
 * What each context may do:
 *   - threads: everything; a call may sleep on the lock (priority
 *     inheritance applies);
 *   - boot code before the scheduler runs: everything, with no lock (one
 *     thread);
 *   - a thread with preemption or interrupts off: output takes the lock
 *     if it is free; if another thread holds it, the text goes straight to
 *     the console, unbuffered (never into the stream another thread is
 *     filling); the heap is a reported bug there (it may have to sleep);
 *   - interrupt handlers: no heap (a reported bug naming the handler's
 *     thread), and no output except the kernel's own WARN/panic and fault
 *     reports: any other is reported once with a WARN and then printed as
 *     above.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <reent.h>
#include <lokal/mutex.h>
#include <lokal/preempt.h>
#include <lokal/sched.h>
#include <lokal/wait.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

int _write(int fd, const char *buf, int len);

/* A mutex its owner may take again (newlib re-enters: vfprintf can malloc, say). */
struct rlock {
	struct mutex m;
	unsigned int depth;
};

static struct rlock heap_lock = { MUTEX_INIT(heap_lock.m), 0 };
static struct rlock stdio_lock = { MUTEX_INIT(stdio_lock.m), 0 };

static inline bool can_sleep(void)
{
	return !in_atomic() && !arch_irqs_disabled() && !current->pagefault_disabled;
}

/* Take l, sleeping if may_sleep; false when it could not be had without sleeping. */
static bool rlock_take(struct rlock *l, bool may_sleep)
{
	if (l->m.owner == current) {
		l->depth++;
		return true;
	}
	if (may_sleep)
		mutex_lock(&l->m);
	else if (!mutex_trylock(&l->m))
		return false;
	l->depth = 1;
	return true;
}

static void rlock_drop(struct rlock *l)
{
	if (--l->depth == 0)
		mutex_unlock(&l->m);
}

/* ---- the heap: newlib's own hooks ----------------------------------------- */

static void __attribute__((noreturn, noinline, cold)) bad_heap_context(void)
{
	if (in_irq())
		panic("malloc/free in an interrupt handler (interrupting thread '%s'): the heap "
		      "is for threads (its lock is a mutex); allocate in a thread or use a mempool",
		      current->name);
	panic("malloc/free in thread '%s' with %s: the heap's lock is a mutex and may sleep",
	      current->name, arch_irqs_disabled() ? "interrupts off" :
	      current->pagefault_disabled ? "page faults disabled" : "preemption disabled");
}

void __malloc_lock(struct _reent *r);
void __malloc_unlock(struct _reent *r);

void __malloc_lock(struct _reent *r)
{
	(void)r;
	if (!scheduler_running())
		return;
	if (__builtin_expect(heap_lock.m.owner != current && !can_sleep(), 0))
		bad_heap_context();
	rlock_take(&heap_lock, true);
}

void __malloc_unlock(struct _reent *r)
{
	(void)r;
	/* Not taken: boot code before the scheduler ran. */
	if (heap_lock.m.owner == current)
		rlock_drop(&heap_lock);
}

/* ---- stdio: the calls that write to a shared stream ------------------------ */

enum stdio_path {
	STDIO_PLAIN,    /* newlib's call, no lock: boot, or an IRQ while no thread is in stdio */
	STDIO_LOCKED,   /* newlib's call with the lock held; drop it after */
	STDIO_RAW,      /* straight to the console: another thread is in the stream */
};

static enum stdio_path stdio_enter(const char *call)
{
	if (!scheduler_running())
		return STDIO_PLAIN;
	if (in_irq()) {
		static bool warned;

		if (!oops_in_progress && !warned) {
			warned = true;
			WARN(1, "%s in an interrupt handler (interrupting thread '%s'): console "
			     "output is for threads and for WARN/panic", call, current->name);
		}
		/* IRQs do not nest: with the lock free, no thread is inside the stream. */
		return stdio_lock.m.owner ? STDIO_RAW : STDIO_PLAIN;
	}
	return rlock_take(&stdio_lock, can_sleep()) ? STDIO_LOCKED : STDIO_RAW;
}

static void stdio_leave(enum stdio_path path)
{
	if (path == STDIO_LOCKED)
		rlock_drop(&stdio_lock);
}

static bool shared_stream(FILE *f)
{
	return f == stdout || f == stderr;
}

/* The unbuffered path: format on the stack, write to the console. */
static int raw_vprintf(const char *fmt, va_list ap)
{
	char buf[160];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (n < 0)
		return n;
	_write(1, buf, n < (int)sizeof(buf) ? n : (int)sizeof(buf) - 1);
	return n;
}

static int raw_write(const void *p, size_t len)
{
	return _write(1, p, (int)len);
}

int __real_vprintf(const char *fmt, va_list ap);
int __real_vfprintf(FILE *f, const char *fmt, va_list ap);
int __real_puts(const char *s);
int __real_fputc(int c, FILE *f);
int __real_fputs(const char *s, FILE *f);
size_t __real_fwrite(const void *p, size_t size, size_t n, FILE *f);
int __real_fflush(FILE *f);

int __wrap_vprintf(const char *fmt, va_list ap);
int __wrap_printf(const char *fmt, ...);
int __wrap_vfprintf(FILE *f, const char *fmt, va_list ap);
int __wrap_fprintf(FILE *f, const char *fmt, ...);
int __wrap_puts(const char *s);
int __wrap_putchar(int c);
int __wrap_putc(int c, FILE *f);
int __wrap_fputc(int c, FILE *f);
int __wrap_fputs(const char *s, FILE *f);
size_t __wrap_fwrite(const void *p, size_t size, size_t n, FILE *f);
int __wrap_fflush(FILE *f);

int __wrap_vfprintf(FILE *f, const char *fmt, va_list ap)
{
	enum stdio_path path;
	int n;

	if (!shared_stream(f))
		return __real_vfprintf(f, fmt, ap);
	path = stdio_enter("printf");
	n = path == STDIO_RAW ? raw_vprintf(fmt, ap) : __real_vfprintf(f, fmt, ap);
	stdio_leave(path);
	return n;
}

int __wrap_vprintf(const char *fmt, va_list ap)
{
	return __wrap_vfprintf(stdout, fmt, ap);
}

int __wrap_printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = __wrap_vfprintf(stdout, fmt, ap);
	va_end(ap);
	return n;
}

int __wrap_fprintf(FILE *f, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = __wrap_vfprintf(f, fmt, ap);
	va_end(ap);
	return n;
}

int __wrap_fputs(const char *s, FILE *f)
{
	enum stdio_path path;
	int n;

	if (!shared_stream(f))
		return __real_fputs(s, f);
	path = stdio_enter("fputs");
	n = path == STDIO_RAW ? raw_write(s, strlen(s)) : __real_fputs(s, f);
	stdio_leave(path);
	return n;
}

int __wrap_puts(const char *s)
{
	enum stdio_path path = stdio_enter("puts");
	int n;

	if (path == STDIO_RAW)
		n = raw_write(s, strlen(s)) + raw_write("\n", 1);
	else
		n = __real_puts(s);
	stdio_leave(path);
	return n;
}

int __wrap_fputc(int c, FILE *f)
{
	enum stdio_path path;
	char ch = (char)c;
	int n;

	if (!shared_stream(f))
		return __real_fputc(c, f);
	path = stdio_enter("putc");
	n = path == STDIO_RAW ? (raw_write(&ch, 1), (unsigned char)c) : __real_fputc(c, f);
	stdio_leave(path);
	return n;
}

int __wrap_putc(int c, FILE *f)
{
	return __wrap_fputc(c, f);
}

int __wrap_putchar(int c)
{
	return __wrap_fputc(c, stdout);
}

size_t __wrap_fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	enum stdio_path path;
	size_t done;

	if (!shared_stream(f))
		return __real_fwrite(p, size, n, f);
	path = stdio_enter("fwrite");
	if (path == STDIO_RAW)
		done = (raw_write(p, size * n), n);
	else
		done = __real_fwrite(p, size, n, f);
	stdio_leave(path);
	return done;
}

int __wrap_fflush(FILE *f)
{
	enum stdio_path path;
	int ret = 0;

	if (f && !shared_stream(f))
		return __real_fflush(f);
	path = stdio_enter("fflush");
	if (path != STDIO_RAW)          /* the holder flushes its own text */
		ret = __real_fflush(f);
	stdio_leave(path);
	return ret;
}
