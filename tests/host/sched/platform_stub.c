/*
 * The platform below the real scheduler on the host: a counter that
 * advances with simulated ticks, no timer hardware, no marker pin.
 */
#include <lokal/platform.h>
#include "sched_host.h"

uint32_t host_clock;
unsigned int host_marker_edges;

uint32_t clock_read(void)
{
	return host_clock++;
}

uint32_t clock_hz(void)
{
	return 24000000u;
}

void tick_start(unsigned int hz)
{
	(void)hz;
}

void switch_marker_set(int level)
{
	(void)level;
	host_marker_edges++;
}

/* A timer interrupt arriving now, in the running thread. */
void host_tick(void)
{
	irq_enter();
	sched_tick();
	irq_exit();
}
