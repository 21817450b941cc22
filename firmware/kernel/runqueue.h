/*
 * The ready queues under their scheduler name, for the scheduler's own
 * files: not in a public header, where it would take the name runqueue
 * from every application.
 */
#ifndef KERNEL_RUNQUEUE_H
#define KERNEL_RUNQUEUE_H

#include <lokal/cpu.h>

#define runqueue (pcpu_hot.rq)

#endif
