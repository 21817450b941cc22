/* Scheduler entry points for the kernel's own use (not for applications). */
#ifndef LOKAL_SCHED_INTERNAL_H
#define LOKAL_SCHED_INTERNAL_H

/* Switch now if a higher-priority thread is ready (called at preempt_enable). */
void preempt_schedule(void);
/* Pick the next thread and switch to it; current must already be queued or blocked. */
void schedule(void);

#endif
