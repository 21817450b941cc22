/* The report for a bad service handle (see lokal/handle.h). */
#include <lokal/handle.h>
#include <lokal/sched.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>

void bad_handle(const void *p, const char *what, const char *call)
{
	panic("%s(%p) in thread '%s'%s: %s %s", call, p, current->name,
	      in_irq() ? " (in IRQ)" : "", p ? "not an initialised" : "NULL", what);
}
