/*
 * The kmap parts of a switch, timed alone (lokal/measure.h): the
 * scheme's own switch-out and switch-in, and the floor any scheme pays to
 * move one map on a VIVT cache.
 */
#include <lokal/measure.h>
#include <lokal/platform.h>
#include <lokal/sched.h>
#include <lokal/highmem.h>
#include <lokal/bug.h>
#include <asm/fixmap.h>
#include <asm/tlbflush.h>
#include <asm/cacheflush.h>

/* The slots these use are the caller's until it lets preemption in again. */
static void need_preempt_off(const char *call, unsigned int iters)
{
	if (!in_atomic())
		panic("%s(%u) in thread '%s': preemption is on; a switch would move the maps "
		      "being timed (call it between preempt_disable() and preempt_enable())",
		      call, iters, current->name);
}

void measure_kmap_switch_work(unsigned int iters, uint32_t *out, uint32_t *in)
{
	uint32_t t_out = 0, t_in = 0, t;

	need_preempt_off("measure_kmap_switch_work", iters);
	for (unsigned int i = 0; i < iters; i++) {
		t = clock_read();
		kmap_local_sched_out(current);
		t_out += clock_read() - t;
		t = clock_read();
		kmap_local_sched_in(current);
		t_in += clock_read() - t;
	}
	*out = t_out;
	*in = t_in;
}

uint32_t measure_map_move(struct page *page, unsigned int iters)
{
	unsigned long va = __fix_to_virt(FIX_KMAP_BEGIN + KM_MAX_IDX - 1);   /* unused slot */
	pte_t *ptep = virt_to_kpte(va);
	pte_t pte = mk_pte(page, kmap_prot);
	uint32_t t;

	need_preempt_off("measure_map_move", iters);
	set_pte_ext(ptep, pte);
	local_flush_tlb_kernel_page(va);
	t = clock_read();
	for (unsigned int i = 0; i < iters; i++) {
		__cpuc_flush_dcache_area((void *)va, PAGE_SIZE);
		pte_clear(ptep);
		local_flush_tlb_kernel_page(va);
		set_pte_ext(ptep, pte);
		local_flush_tlb_kernel_page(va);
	}
	t = clock_read() - t;
	pte_clear(ptep);
	local_flush_tlb_kernel_page(va);
	return t;
}
