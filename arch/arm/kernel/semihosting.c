/*
 * ARM semihosting: how a run under QEMU (or a debugger) reports its exit
 * status to the host. SYS_EXIT_EXTENDED carries the status, unlike SYS_EXIT
 * on 32-bit ARM.
 *
 * Whether a semihosting host is present is decided at run time, by the
 * call itself: QEMU with -semihosting, or a debugger with semihosting on
 * (OpenOCD's "arm semihosting enable" catches the SWI vector), takes the
 * "svc 0x123456" before it reaches the firmware. Without one, the SVC
 * lands on the firmware's own SWI vector, which answers -1 (entry.S), and
 * machine_halt() parks the CPU quietly: interrupts masked, wait for
 * interrupt, forever. A board running standalone (make load, make flash)
 * therefore stops on panic or exit instead of faulting into the SWI
 * vector again and again.
 */
#include <stdint.h>
#include <stdio.h>
#include <asm/irqflags.h>
#include <asm/cacheflush.h>
#include <lokal/platform.h>

#define SYS_EXIT_EXTENDED               0x20
#define ADP_STOPPED_APPLICATION_EXIT    0x20026

static long semihost_call(long op, void *arg)
{
	register long r0 __asm__("r0") = op;
	register void *r1 __asm__("r1") = arg;

	__asm__ volatile("svc 0x123456" : "+r"(r0) : "r"(r1) : "memory", "lr");
	return r0;
}

void machine_halt(int status)
{
	uint32_t block[2] = { ADP_STOPPED_APPLICATION_EXIT, (uint32_t)status };

	arch_local_irq_disable();
	fflush(stdout);
	/* A debugger reads the block from memory, not from our D-cache. */
	__cpuc_flush_kern_all();
	semihost_call(SYS_EXIT_EXTENDED, block);
	/* Still here: nobody took the call (a board running standalone). */
	printf("halted with status %d (no semihosting host to report it to)\n", status);
	fflush(stdout);
	for (;;)
		arch_cpu_idle();
}
