/*
 * Timed loops over steps the kernel does not offer as calls, for
 * benchmarks: each runs its step back to back, iters times, and returns
 * the clock_read() ticks that took. An application reports the floor
 * under a switch, or one part of it, with these instead of reaching into
 * the scheduler, the mm code or the arch. Each needs the caller to mask
 * what it names, so that the window is the caller's own (the emulator's
 * interrupts-off and preempt-off reports count it as the application's);
 * a caller that did not is a reported bug.
 */
#ifndef LOKAL_MEASURE_H
#define LOKAL_MEASURE_H

#include <stdint.h>

struct page;

/*
 * Two raw contexts bouncing through the arch's register switch: iters
 * round trips, two switches each. Nothing of the scheduler runs. Call with
 * interrupts masked (local_irq_save()).
 */
uint32_t measure_register_switch(unsigned int iters);
/*
 * Moving one map across a switch with nothing else, in an unused kmap
 * slot: clean+invalidate the page's lines, clear the PTE, TLB invalidate,
 * set the PTE again, TLB invalidate; iters times. Call with preemption
 * off (preempt_disable()).
 */
uint32_t measure_map_move(struct page *page, unsigned int iters);
/*
 * The kmap work of a switch alone, for the caller's own local maps:
 * iters switch-outs and switch-ins of current; the ticks of each half go
 * to *out and *in. Call with preemption off (preempt_disable()).
 */
void measure_kmap_switch_work(unsigned int iters, uint32_t *out, uint32_t *in);

#endif
