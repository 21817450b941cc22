/* pkmap_get_info(): the pkmap pool's occupancy for consoles (lokal/sysinfo.h). */
#include <lokal/sysinfo.h>
#include <lokal/highmem-internal.h>
#include <asm/irqflags.h>

void pkmap_get_info(struct pkmap_info *pi)
{
	unsigned long flags = arch_local_irq_save();

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
	arch_local_irq_restore(flags);
}
