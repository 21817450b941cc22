/*
 * DEBUG_HIGHMEM: an interrupt handler's kmap_local_page() of a page the
 * interrupted thread has mapped would be a second, incoherent VIVT alias;
 * it is diagnosed, naming the thread and its address for the page.
 */
#include <lokal/highmem.h>
#include <lokal/irq.h>
#include <lokal/app.h>

static struct page *page;

static void irq_maps(unsigned int irq, void *arg)
{
	void *p;

	(void)arg;
	irq_clear_soft(irq);
	p = kmap_local_page(page);
	kunmap_local(p);
}

int app_main(void)
{
	void *p;

	page = alloc_page(ZONE_HIGHMEM);
	p = kmap_local_page(page);
	request_irq(irq_soft_line(), irq_maps, NULL);
	irq_raise_soft(irq_soft_line());
	free_irq(irq_soft_line());
	kunmap_local(p);
	return 0;
}
