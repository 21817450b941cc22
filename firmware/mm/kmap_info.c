/* pkmap_get_info(): the pkmap pool's occupancy for consoles (lokal/sysinfo.h). */
#include <lokal/sysinfo.h>
#include <lokal/highmem-internal.h>
#include <lokal/preempt.h>

/*
 * Preemption off, interrupts on: no other thread changes a count meanwhile,
 * and an interrupt handler's map and unmap both finish before the loop
 * goes on, so the counts read are a state the pool was in.
 */
void pkmap_get_info(struct pkmap_info *pi)
{
	preempt_disable();
	*pi = (struct pkmap_info){ .slots = LAST_PKMAP };
	for (unsigned int i = 0; i < LAST_PKMAP; i++) {
		int count = pkmap_slot_count(i);

		if (count == 0)
			pi->free++;
		else if (count == 1)
			pi->awaiting_flush++;
		else
			pi->in_use++;
	}
	pi->waiters = pkmap_nr_waiters();
	preempt_enable();
}
