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
 */
#include <stdio.h>
#include <lokal/preempt.h>
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

KTEST_MAIN(KTEST(calib_below_bound), KTEST(calib_above_bound), KTEST(calib_long), KTEST(calib_very_long),
	   KTEST(calib_preempt_off))
