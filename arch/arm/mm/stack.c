/*
 * Thread stacks in the stack area (asm/memory.h): each stack is a run of
 * pages with one unmapped page below it, so a store past the stack's end
 * faults at once instead of overwriting what lies below.
 *
 * The pages come from highmem, which also spares lowmem, and are mapped
 * only here: no second VIVT mapping. When highmem is exhausted a lowmem
 * page is used; its direct-map address then reaches nothing, since the page
 * allocator gave it to the stack alone. Either kind of page may still have
 * lines in the D-cache under an address its last user had (the direct map,
 * a pkmap or deferred kmap slot): the whole D-cache is cleaned once the
 * pages are taken, before anything is written through the stack. When a
 * stack is given back its own lines are cleaned and invalidated before its
 * entries go, so none is left under an address that no longer maps.
 */
#include <stdint.h>
#include <lokal/thread_stack.h>
#include <lokal/mm.h>
#include <lokal/preempt.h>
#include <asm/memory.h>
#include <asm/pgtable.h>
#include <asm/cacheflush.h>
#include <asm/tlbflush.h>

#define AREA_PAGES      (STACK_AREA_SIZE / PAGE_SIZE)

static uint32_t used[AREA_PAGES / 32];  /* a page of the area taken (guard pages too) */

static bool page_used(unsigned long i)
{
	return used[i / 32] >> (i % 32) & 1;
}

static void mark(unsigned long first, unsigned long n, bool taken)
{
	for (unsigned long i = first; i < first + n; i++) {
		if (taken)
			used[i / 32] |= 1u << (i % 32);
		else
			used[i / 32] &= ~(1u << (i % 32));
	}
}

/* First fit of n free pages; AREA_PAGES when none. Callers hold off preemption. */
static unsigned long find_run(unsigned long n)
{
	unsigned long run = 0;

	for (unsigned long i = 0; i < AREA_PAGES; i++) {
		run = page_used(i) ? 0 : run + 1;
		if (run == n)
			return i + 1 - n;
	}
	return AREA_PAGES;
}

static struct page *stack_page(void)
{
	struct page *pg = alloc_page(ZONE_HIGHMEM);

	return pg ? pg : alloc_page(ZONE_LOWMEM);
}

static void unmap_pages(unsigned long va, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++, va += PAGE_SIZE) {
		pte_t *pte = virt_to_kpte(va);

		pte_t old = *pte;

		if (pte_none(old))
			continue;
		__cpuc_flush_dcache_area((void *)va, PAGE_SIZE);
		pte_clear(pte);
		local_flush_tlb_kernel_page(va);
		__free_page(pfn_to_page(pte_pfn(old)));
	}
}

void *alloc_thread_stack(size_t *size)
{
	unsigned long n = (*size + PAGE_SIZE - 1) / PAGE_SIZE, first, va;

	if (n == 0 || n >= AREA_PAGES)
		return NULL;
	preempt_disable();
	first = find_run(n + 1);                /* the guard page and the stack */
	if (first < AREA_PAGES)
		mark(first, n + 1, true);
	preempt_enable();
	if (first == AREA_PAGES)
		return NULL;
	va = STACK_AREA_BASE + (first + 1) * PAGE_SIZE;
	for (unsigned long i = 0; i < n; i++) {
		struct page *pg = stack_page();

		if (!pg) {
			unmap_pages(va, i);
			preempt_disable();
			mark(first, n + 1, false);
			preempt_enable();
			return NULL;
		}
		set_pte_ext(virt_to_kpte(va + i * PAGE_SIZE), pfn_pte(page_to_pfn(pg), PAGE_KERNEL));
	}
	__cpuc_flush_kern_all();
	*size = n * PAGE_SIZE;
	return (void *)va;
}

void free_thread_stack(void *stack, size_t size)
{
	unsigned long va = (unsigned long)stack, n = size / PAGE_SIZE;

	if (!stack)
		return;
	unmap_pages(va, n);
	preempt_disable();
	mark((va - STACK_AREA_BASE) / PAGE_SIZE - 1, n + 1, false);
	preempt_enable();
}
