/* panic() and WARN(): say who and where, then stop or go on. */
#include <stdarg.h>
#include <stdio.h>
#include <lokal/bug.h>
#include <lokal/sched.h>
#include <lokal/platform.h>
#include <asm/irqflags.h>

unsigned int warn_count;
unsigned int oops_in_progress;

static const char *who(void)
{
	return current ? current->name : "?";
}

void panic(const char *fmt, ...)
{
	va_list ap;

	arch_local_irq_disable();
	oops_in_progress++;     /* never undone: the machine stops */
	printf("\nPANIC [thread '%s']: ", who());
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	machine_halt(PANIC_EXIT_STATUS);
}

void warn_printf(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	warn_count++;
	oops_in_progress++;
	printf("WARNING [thread '%s'] at %s:%d: ", who(), file, line);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	oops_in_progress--;
}
