/*
 * Every stack has an unmapped guard page below it: an overflow faults at
 * once and is reported as one. The case comes from the console (the
 * runner types it), since each ends the run with the fault status:
 *   r  a thread recursing past the end of its 4 KiB stack;
 *   k  the same while the thread holds two local kmaps;
 *   i  an interrupt handler recursing: handlers run on the interrupted
 *      thread's stack (entry.S), so that thread's guard page stops it;
 *   q  an interrupt handler overflowing the IRQ mode's own stack.
 */
#include <stdio.h>
#include <lokal/app.h>
#include <lokal/highmem.h>
#include <lokal/irq.h>
#include <lokal/platform.h>
#include <lokal/thread.h>
#include "ktest.h"

static volatile unsigned int depth_limit = 1u << 30;   /* never reached: the guard stops it first */

static unsigned int __attribute__((noinline)) recurse(unsigned int n)
{
	volatile unsigned char frame[64];

	frame[0] = (unsigned char)n;
	if (n >= depth_limit)
		return frame[0];
	return recurse(n + 1) + frame[0];
}

static void recurser(void *arg)
{
	(void)arg;
	printf("stack-guard: recursing in thread 'recurser'\n");
	recurse(0);
	printf("stack-guard: the recursion came back\n");
}

static void kmap_holder(void *arg)
{
	struct page *a = alloc_page(ZONE_HIGHMEM), *b = alloc_page(ZONE_HIGHMEM);
	unsigned int *pa = kmap_local_page(a), *pb = kmap_local_page(b);

	(void)arg;
	pa[0] = 1;
	pb[0] = 2;
	printf("stack-guard: recursing in thread 'kmapper' with local kmaps at %p and %p\n", (void *)pa, (void *)pb);
	recurse(0);
	kunmap_local(pb);
	kunmap_local(pa);
}

static void irq_recurses(unsigned int irq, void *arg)
{
	(void)arg;
	irq_clear_soft(irq);
	recurse(0);
}

/* Into IRQ mode (IRQs stay masked) and push until the guard page stops it. */
static void irq_stack_overflows(unsigned int irq, void *arg)
{
	(void)arg;
	irq_clear_soft(irq);
	__asm__ volatile("mrs	r2, cpsr\n\t"
			 "bic	r3, r2, #0x1f\n\t"
			 "orr	r3, r3, #0x92\n\t"
			 "msr	cpsr_c, r3\n"
			 "1:\n\t"
			 "str	r2, [sp, #-4]!\n\t"
			 "b	1b"
			 ::: "r2", "r3", "memory");
}

int app_main(void)
{
	int c;
	struct thread *t;

	printf("stack-guard: case? (r, k, i, q)\n");
	c = ktest_pick_case("rkiq");
	switch (c) {
	case 'r':
	case 'k':
		t = thread_create(c == 'r' ? "recurser" : "kmapper", c == 'r' ? recurser : kmap_holder,
				  NULL, PRIO_MAIN + 1, 4096);
		if (t)
			thread_join(t);
		break;
	case 'i':
	case 'q':
		printf("stack-guard: %s\n", c == 'i' ? "an IRQ handler recursing" : "an IRQ handler filling the IRQ stack");
		request_irq(irq_soft_line(), c == 'i' ? irq_recurses : irq_stack_overflows, NULL);
		irq_raise_soft(irq_soft_line());
		break;
	default:
		printf("stack-guard: no case typed\n");
		return 1;
	}
	printf("stack-guard: no overflow was caught\n");
	return 1;
}
