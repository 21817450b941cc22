/*
 * Must NOT compile: the unmap calls take the mapped address, and handing
 * them the struct page is refused at compile time. run-tests.sh compiles
 * it (syntax only, never run) with -DUNMAP=kunmap_local and with
 * -DUNMAP=kunmap_atomic, and once more with -DCONTROL to prove that the
 * file is otherwise fine.
 */
#include <lokal/highmem.h>

void misuse(struct page *page);

void misuse(struct page *page)
{
	void *addr = kmap_local_page(page);

#ifdef CONTROL
	UNMAP(addr);
#else
	(void)addr;
	UNMAP(page);
#endif
}
