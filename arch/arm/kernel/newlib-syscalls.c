/*
 * The system calls newlib needs: console output and input, a heap, exit.
 * Everything else answers as an empty, non-seekable console.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <asm/mach.h>
#include <asm/irqflags.h>
#include <lokal/platform.h>

extern char __heap_start[], __heap_end[];
static char *heap_brk = __heap_start;

int _write(int fd, const char *buf, int len);
int _read(int fd, char *buf, int len);
void *_sbrk(ptrdiff_t incr);
void _exit(int status);
int _close(int fd);
int _fstat(int fd, struct stat *st);
int _isatty(int fd);
int _lseek(int fd, int off, int whence);
int _kill(int pid, int sig);
int _getpid(void);

int _write(int fd, const char *buf, int len)
{
	(void)fd;
	for (int i = 0; i < len; i++) {
		if (buf[i] == '\n')
			board_console_putc('\r');
		board_console_putc(buf[i]);
	}
	return len;
}

/* Blocking console read of at least one byte (interrupt-filled buffer). */
int _read(int fd, char *buf, int len)
{
	int n = 0, c;

	(void)fd;
	while (n == 0) {
		while (n < len && (c = console_getc()) >= 0)
			buf[n++] = (char)c;
		if (n == 0)
			arch_cpu_idle();
	}
	return n;
}

void *_sbrk(ptrdiff_t incr)
{
	unsigned long flags = arch_local_irq_save();
	char *prev = heap_brk;

	if (incr > __heap_end - heap_brk) {
		arch_local_irq_restore(flags);
		/* Raw output: printf itself may be what is asking for memory. */
		static const char msg[] = "\nsbrk: heap exhausted\n";
		_write(1, msg, sizeof(msg) - 1);
		errno = ENOMEM;
		return (void *)-1;
	}
	heap_brk += incr;
	arch_local_irq_restore(flags);
	return prev;
}

void _exit(int status)
{
	machine_halt(status);
}

int _close(int fd) { (void)fd; return -1; }
int _isatty(int fd) { (void)fd; return 1; }
int _lseek(int fd, int off, int whence) { (void)fd; (void)off; (void)whence; return 0; }
int _kill(int pid, int sig) { (void)pid; (void)sig; errno = EINVAL; return -1; }
int _getpid(void) { return 1; }

int _fstat(int fd, struct stat *st)
{
	(void)fd;
	memset(st, 0, sizeof(*st));
	st->st_mode = S_IFCHR;
	return 0;
}
