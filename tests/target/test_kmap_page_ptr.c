/* Passing the struct page (not the mapped address) to kunmap_local must be diagnosed. */
#include <lokal/highmem.h>
#include "ktest.h"

int app_main(void)
{
	struct page *pg = alloc_page(ZONE_HIGHMEM);
	void *lost_type = pg;   /* the compile-time check cannot see through this */

	kmap_local_page(pg);
	kunmap_local(lost_type);
	return 0;
}
