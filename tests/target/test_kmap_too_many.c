/* One nested local kmap more than a thread has slots for must be diagnosed. */
#include <lokal/highmem.h>
#include "ktest.h"

int app_main(void)
{
	for (int i = 0; i <= KM_MAX_IDX / KM_INCR; i++)
		kmap_local_page(alloc_page(ZONE_HIGHMEM));
	return 0;
}
