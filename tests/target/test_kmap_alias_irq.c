/*
 * An interrupt handler's kmap_local_page() of a page the interrupted thread
 * has mapped gets a second virtual address; on this VIVT cache the map must
 * write the thread's dirty lines back first and drop them, so the handler
 * reads what the thread wrote and the thread, once the handler returns,
 * reads what the handler wrote. A nested map of the same page by the thread
 * itself is the same case without the interrupt. The emulator's oracle
 * reports a missing clean or invalidate; the checks below see the data.
 */
#include <string.h>
#include <lokal/highmem.h>
#include <lokal/irq.h>
#include "ktest.h"

static struct page *page;
static char irq_saw[32];
static void *irq_va;

static void irq_maps(unsigned int irq, void *arg)
{
	char *p;

	(void)arg;
	irq_clear_soft(irq);
	p = kmap_local_page(page);
	irq_va = p;
	memcpy(irq_saw, p, sizeof(irq_saw));
	strcpy(p, "written by the handler");
	kunmap_local(p);
}

static void handler_maps_interrupted_threads_page(void)
{
	char *p;

	page = alloc_page(ZONE_HIGHMEM);
	KT_ASSERT(page);
	p = kmap_local_page(page);
	(void)*(volatile char *)p;                  /* read-allocate: the write stays dirty */
	strcpy(p, "written by the thread");
	request_irq(irq_soft_line(), irq_maps, NULL);
	irq_raise_soft(irq_soft_line());
	free_irq(irq_soft_line());
	KT_ASSERT(irq_va && irq_va != (void *)p);
	KT_ASSERT(strcmp(irq_saw, "written by the thread") == 0);
	KT_ASSERT(strcmp(p, "written by the handler") == 0);
	kunmap_local(p);
	__free_page(page);
}

static void nested_map_of_same_page(void)
{
	struct page *pg = alloc_page(ZONE_HIGHMEM);
	char *outer, *inner;

	KT_ASSERT(pg);
	outer = kmap_local_page(pg);
	(void)*(volatile char *)outer;
	strcpy(outer, "outer");
	inner = kmap_local_page(pg);
	KT_ASSERT(inner != outer);
	KT_ASSERT(strcmp(inner, "outer") == 0);
	strcpy(inner, "inner");
	kunmap_local(inner);
	KT_ASSERT(strcmp(outer, "inner") == 0);
	kunmap_local(outer);
	__free_page(pg);
}

KTEST_MAIN(KTEST(handler_maps_interrupted_threads_page), KTEST(nested_map_of_same_page))
