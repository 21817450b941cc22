/*
 * DEBUG_HIGHMEM: kmap() of a page another thread holds in a local kmap
 * would give it a second, incoherent VIVT alias; it is diagnosed, naming
 * both threads and the local kmap's address.
 */
#include <lokal/highmem.h>
#include <lokal/thread.h>
#include <lokal/mutex.h>
#include <lokal/app.h>

static struct semaphore mapped, never;

static void holder(void *arg)
{
	void *p = kmap_local_page(arg);

	up(&mapped);
	down(&never);           /* keeps the map; the image ends first */
	kunmap_local(p);
}

int app_main(void)
{
	struct page *page = alloc_page(ZONE_HIGHMEM);

	sema_init(&mapped, 0);
	sema_init(&never, 0);
	thread_create("holder", holder, page, PRIO_MAIN - 1, 0);
	down(&mapped);
	kmap(page);
	return 0;
}
