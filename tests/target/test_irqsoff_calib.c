/*
 * Calibration of the emulator's interrupts-off measurement: windows of a
 * known length, some above the 200-instruction bound.  Each is one asm
 * block, so its length is fixed by the code, not by the compiler:
 *   msr (masks) + mov + iters x (subs + bne) + msr (unmasks) = 2 x iters + 3
 * instructions, counting both msr.  The image prints what it expects; the
 * emulator must report exactly that for the window opened in each function
 * (tests/vivt/check-vivt.sh runs this image apart from the bound).
 * Under QEMU it only proves the windows run.
 *
 * The same for a preemption-off window: the preempt count raised and
 * dropped by one store each around a loop (interrupts masked around it,
 * so no handler's instructions land inside):
 *   str (raises) + mov + iters x (subs + bne) + ldr + sub + str (drops)
 *   = 2 x iters + 5 instructions, counting both stores.
 * It is the application's window, one above the kernel's 1000-instruction
 * bound, so the check proves both the count and that the bound fails it.
 *
 * And the split of a handler's window into the kernel's part and the
 * handler's own: calib_irq, on the software line, is
 *   push + mov + iters x (subs + bne) + bl (calib_clear) + pop + b (a tail
 *   call to irq_soft_line, arch code) = 2 x iters + 5 instructions, and
 *   calib_clear's and irq_soft_line's,
 * and those two (calib_clear drops the line, itself through a call into
 * arch code) are measured alone in thread context: the window in
 * calib_clear_window is
 *   msr + mov + 300 x (subs + bne) + bl + bl + msr
 *   = 605 instructions and theirs
 * (the loop ranks the window among the emulator's reported sites, whose
 * other windows are all shorter). The emulator must count exactly the
 * handler's own, the arch code it calls or tail-calls included, and the
 * kernel's part is the rest of the window.
 */
#include <stdio.h>
#include <lokal/preempt.h>
#include <lokal/irq.h>
#include <asm/irqflags.h>
#include "ktest.h"

static inline __attribute__((always_inline)) void irqs_off_for(unsigned int iters)
{
	unsigned long flags, tmp;

	__asm__ volatile("mrs	%0, cpsr\n\t"
			 "orr	%1, %0, #0x80\n\t"
			 "msr	cpsr_c, %1\n\t"
			 "mov	%1, %2\n"
			 "1:\n\t"
			 "subs	%1, %1, #1\n\t"
			 "bne	1b\n\t"
			 "msr	cpsr_c, %0"
			 : "=&r"(flags), "=&r"(tmp)
			 : "r"(iters)
			 : "cc", "memory");
}

/* One function per window, so the emulator's per-site report tells them apart. */
#define CALIB_WINDOW(name, iters)                                               \
	static void __attribute__((noinline)) name(void)                        \
	{                                                                       \
		irqs_off_for(iters);                                            \
		printf("irqsoff-calib: irqs_off_for in " #name " expects %u instructions\n", \
		       2u * (iters) + 3u);                                      \
	}

CALIB_WINDOW(calib_below_bound, 98)	/* 199 */
CALIB_WINDOW(calib_above_bound, 99)	/* 201 */
CALIB_WINDOW(calib_long, 500)		/* 1003 */
CALIB_WINDOW(calib_very_long, 2500)	/* 5003 */

static void __attribute__((noinline)) calib_preempt_off(void)
{
	unsigned long flags, tmp, cnt, iters = 500;

	flags = arch_local_irq_save();
	__asm__ volatile("ldr	%0, [%2]\n\t"
			 "add	%0, %0, #1\n\t"
			 "str	%0, [%2]\n\t"
			 "mov	%1, %3\n"
			 "1:\n\t"
			 "subs	%1, %1, #1\n\t"
			 "bne	1b\n\t"
			 "ldr	%0, [%2]\n\t"
			 "sub	%0, %0, #1\n\t"
			 "str	%0, [%2]"
			 : "=&r"(tmp), "=&r"(cnt)
			 : "r"(&__preempt_count), "r"(iters)
			 : "cc", "memory");
	arch_local_irq_restore(flags);
	printf("irqsoff-calib: preempt_off_for in calib_preempt_off expects %lu instructions\n",
	       2 * iters + 5);
}

#define CALIB_HANDLER_ITERS	1000	/* an own part far above the kernel's 300 */
#define STR_(x)			#x
#define STR(x)			STR_(x)

static volatile unsigned int calib_irqs;

/* Drops the software line; noinline: the same code in both measurements. */
void __attribute__((noinline, used)) calib_clear(void)
{
	irq_clear_soft(irq_soft_line());
	calib_irqs++;
}

/* The handler, all of it asm but its two calls: its count is in the header. */
static void __attribute__((naked, noinline)) calib_irq(unsigned int irq, void *arg)
{
	(void)irq;
	(void)arg;
	__asm__ volatile("push	{r4, lr}\n\t"
			 "mov	r4, #" STR(CALIB_HANDLER_ITERS) "\n"
			 "1:\n\t"
			 "subs	r4, r4, #1\n\t"
			 "bne	1b\n\t"
			 "bl	calib_clear\n\t"
			 "pop	{r4, lr}\n\t"
			 "b	irq_soft_line");
}

/* calib_clear and irq_soft_line with interrupts masked, after a loop: their length plus 605. */
static void __attribute__((noinline)) calib_clear_window(void)
{
	unsigned long flags, tmp;

	__asm__ volatile("mrs	%0, cpsr\n\t"
			 "orr	%1, %0, #0x80\n\t"
			 "msr	cpsr_c, %1\n\t"
			 "mov	%1, #300\n"
			 "1:\n\t"
			 "subs	%1, %1, #1\n\t"
			 "bne	1b\n\t"
			 "bl	calib_clear\n\t"
			 "bl	irq_soft_line\n\t"
			 "msr	cpsr_c, %0"
			 : "=&r"(flags), "=&r"(tmp)
			 :
			 : "r0", "r1", "r2", "r3", "r12", "lr", "cc", "memory");
}

static void __attribute__((noinline)) calib_handler_own(void)
{
	calib_clear_window();
	KT_ASSERT_EQ(request_irq(irq_soft_line(), calib_irq, NULL), 0);
	calib_irqs = 0;
	irq_raise_soft(irq_soft_line());
	KT_ASSERT_EQ(calib_irqs, 1u);
	free_irq(irq_soft_line());
	printf("irqsoff-calib: handler calib_irq on line %u expects %u instructions of its own "
	       "and calib_clear_window's window less 605\n", irq_soft_line(), 2u * CALIB_HANDLER_ITERS + 5u);
}

KTEST_MAIN(KTEST(calib_below_bound), KTEST(calib_above_bound), KTEST(calib_long), KTEST(calib_very_long),
	   KTEST(calib_preempt_off), KTEST(calib_handler_own))
