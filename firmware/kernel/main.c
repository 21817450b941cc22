/* start_kernel(): from a machine with MMU and caches on to the main thread. */
#include <stdio.h>
#include <lokal/app.h>
#include <lokal/thread.h>
#include <lokal/platform.h>
#include <lokal/mm.h>
#include <lokal/bug.h>
#include <asm/setup.h>

void start_kernel(void);

static void main_thread(void *arg)
{
	int status;

	(void)arg;
	status = app_main();
	printf("main: exit status %d\n", status);
	machine_halt(status);
}

void start_kernel(void)
{
	printf("\nLokal on %s: kmap_local for ARM926EJ-S highmem\n", CONFIG_BOARD);
	arch_print_banner();
	mm_init(arch_kernel_end());
	sched_init();
	if (!thread_create("main", main_thread, NULL, PRIO_MAIN, 8192))
		panic("cannot create the main thread");
	sched_start();
}
