/* DEBUG_HIGHMEM: running off the end of a local map hits a guard page. */
#include <stdio.h>
#include <lokal/highmem.h>
#include "ktest.h"

int app_main(void)
{
	volatile char *p = kmap_local_page(alloc_page(ZONE_HIGHMEM));

	printf("mapped at %p\n", (void *)p);
	p[PAGE_SIZE] = 1;       /* one byte past the page */
	printf("no guard page!\n");
	return 0;
}
