/*
 * Bad arguments to the thread and timer calls, one per run (the case is
 * typed on the console): each must end in a diagnostic naming the call,
 * the bad value and the calling thread, not in a bare BUG or a fault.
 *   p  thread_create() at priority 99
 *   e  thread_create() with a NULL entry point
 *   j  thread_join() of the calling thread
 *   t  mod_timer_periodic() with period 0
 */
#include <stdio.h>
#include <lokal/thread.h>
#include <lokal/timer.h>
#include <lokal/platform.h>
#include <lokal/app.h>
#include "ktest.h"

static void never(void *arg)
{
	(void)arg;
}

static void tick_fn(struct timer_list *t)
{
	(void)t;
}

static struct timer_list timer;

int app_main(void)
{
	printf("svc-args: case? (p, e, j, t)\n");
	switch (ktest_pick_case("pejt")) {
	case 'p':
		thread_create("bad-prio", never, NULL, 99, 0);
		break;
	case 'e':
		thread_create("no-entry", NULL, NULL, PRIO_MAIN + 1, 0);
		break;
	case 'j':
		thread_join(current);
		break;
	case 't':
		timer_setup(&timer, tick_fn, 0);
		mod_timer_periodic(&timer, jiffies_read() + 1, 0);
		break;
	default:
		printf("svc-args: no case typed\n");
		return 1;
	}
	printf("svc-args: the bad call was accepted\n");
	return 1;
}
