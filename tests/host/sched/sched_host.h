/* The real scheduler on the host (tests/host/sched). */
#ifndef SCHED_HOST_H
#define SCHED_HOST_H

#include <stdint.h>

extern uint32_t host_clock;
extern unsigned int host_marker_edges;

/* Simulate the tick interrupt arriving in the running thread. */
void host_tick(void);

/*
 * If set, called once (then cleared) right after the next D-cache flush
 * made with interrupts on, as if an interrupt arrived there: a switch-out
 * flushes each slot it takes down, in every kmap configuration.
 */
extern void (*host_irq_at_dcache_flush)(unsigned long vaddr);

#define HOST_STACK (256 * 1024)   /* ASan and cmocka want room */

#endif
