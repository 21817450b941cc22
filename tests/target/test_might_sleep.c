/* Sleeping with preemption disabled must be diagnosed, naming the thread. */
#include <stdio.h>
#include <lokal/thread.h>
#include <lokal/preempt.h>
#include "ktest.h"

int app_main(void)
{
	preempt_disable();
	sleep_ms(1);
	printf("slept in atomic context without a diagnostic!\n");
	return 0;
}
