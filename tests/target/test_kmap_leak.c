/* A thread that exits holding a local kmap must be reported with its name and the address. */
#include <lokal/highmem.h>
#include <lokal/thread.h>
#include <lokal/app.h>
#include "ktest.h"

static void leaker(void *arg)
{
	kmap_local_page(arg);
}

int app_main(void)
{
	struct thread *t = thread_create("leaker", leaker, alloc_page(ZONE_HIGHMEM), PRIO_MAIN + 1, 0);

	thread_join(t);
	return 0;
}
