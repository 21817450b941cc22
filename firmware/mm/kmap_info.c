/* pkmap_get_info(): the pkmap pool's occupancy for consoles (lokal/sysinfo.h). */
#include <lokal/sysinfo.h>
#include <lokal/highmem-internal.h>

/*
 * Preemptible: the scan grows with LAST_PKMAP, and a console can live
 * with totals whose counts were read at slightly different moments (each
 * count is one word, read whole; the totals always add up to the pool).
 */
void pkmap_get_info(struct pkmap_info *pi)
{
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
}
