/* Unmapping local kmaps out of order must be diagnosed, not corrupt. */
#include <lokal/highmem.h>
#include "ktest.h"

int app_main(void)
{
	void *a = kmap_local_page(alloc_page(ZONE_HIGHMEM));
	void *b = kmap_local_page(alloc_page(ZONE_HIGHMEM));

	(void)b;
	kunmap_local(a);        /* b is on top */
	return 0;
}
