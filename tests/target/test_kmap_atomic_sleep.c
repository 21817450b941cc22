/* Sleeping inside kmap_atomic must be diagnosed. */
#include <lokal/highmem.h>
#include <lokal/thread.h>
#include "ktest.h"

int app_main(void)
{
	void *p = kmap_atomic(alloc_page(ZONE_HIGHMEM));

	sleep_ms(1);
	kunmap_atomic(p);
	return 0;
}
