/* Host scheduler stand-in (see sched_stub.c). */
#ifndef HOST_SCHED_H
#define HOST_SCHED_H

#include <stdbool.h>
#include <lokal/sched.h>
#include <lokal/wait.h>

extern struct thread host_boot_thread;
extern bool host_scheduler_running;
/* Runs "in another thread" when the current one sleeps on wq; must wake it. */
extern void (*host_sleep_hook)(struct wait_queue *wq);
extern unsigned int host_sleeps, host_wakeups;

void host_sched_reset(void);
void host_thread_init(struct thread *t, const char *name);
/* Switch current to next with the kmap teardown/restore of a real switch. */
void host_switch_to(struct thread *next);

#endif
