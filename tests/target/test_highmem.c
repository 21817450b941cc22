/*
 * Highmem on target. The coherence cases are the board bring-up check:
 * QEMU has no cache and cannot fail them, a real VIVT board would if a
 * flush were missing.
 */
#include <string.h>
#include <lokal/highmem.h>
#include <lokal/thread.h>
#include <asm/fixmap.h>
#include <asm/highmem.h>
#include "ktest.h"

#define NPAGES 256

static struct page *pages[NPAGES];

static uint32_t pat(unsigned long pfn, unsigned int w, uint32_t salt)
{
	return (uint32_t)(pfn * 0x9e3779b1u) + w * 7u + salt;
}

static void fill(uint32_t *p, struct page *pg, uint32_t salt)
{
	for (unsigned int w = 0; w < PAGE_SIZE / 4; w++)
		p[w] = pat(page_to_pfn(pg), w, salt);
}

static unsigned int bad_words(const uint32_t *p, struct page *pg, uint32_t salt)
{
	unsigned int bad = 0;

	for (unsigned int w = 0; w < PAGE_SIZE / 4; w++)
		bad += p[w] != pat(page_to_pfn(pg), w, salt);
	return bad;
}

static void alloc_pages_once(void)
{
	for (int i = 0; i < NPAGES; i++) {
		pages[i] = alloc_page(ZONE_HIGHMEM);
		KT_ASSERT(pages[i] && PageHighMem(pages[i]));
		KT_ASSERT(page_address(pages[i]) == NULL);
	}
}

static void local_write_then_kmap_and_local_read(void)
{
	unsigned int bad = 0;

	for (int i = 0; i < NPAGES; i++) {
		uint32_t *p = kmap_local_page(pages[i]);

		fill(p, pages[i], 1);
		kunmap_local(p);
	}
	for (int i = 0; i < NPAGES; i++) {
		uint32_t *p = kmap(pages[i]);

		bad += bad_words(p, pages[i], 1);
		kunmap(pages[i]);
	}
	kmap_flush_unused();    /* drop pkmap aliases so the next maps are fresh slots */
	for (int i = 0; i < NPAGES; i++) {
		uint32_t *p = kmap_local_page(pages[i]);

		KT_ASSERT((unsigned long)p >= FIXADDR_START);
		bad += bad_words(p, pages[i], 1);
		kunmap_local(p);
	}
	KT_ASSERT_EQ(bad, 0);
}

static void kmap_write_then_local_read(void)
{
	unsigned int bad = 0;

	for (int i = 0; i < NPAGES; i++) {
		uint32_t *p = kmap(pages[i]);

		fill(p, pages[i], 2);
		kunmap(pages[i]);
	}
	kmap_flush_unused();
	for (int i = 0; i < NPAGES; i++) {
		uint32_t *p = kmap_local_page(pages[i]);

		bad += bad_words(p, pages[i], 2);
		kunmap_local(p);
	}
	KT_ASSERT_EQ(bad, 0);
}

static void nested_maps_full_depth(void)
{
	void *addr[KM_MAX_IDX];
	int depth = KM_MAX_IDX / KM_INCR;

	for (int i = 0; i < depth; i++) {
		addr[i] = kmap_local_page(pages[i]);
		KT_ASSERT_EQ((unsigned long)addr[i],
			     __fix_to_virt(FIX_KMAP_BEGIN + (i + 1) * KM_INCR - 1));
		fill(addr[i], pages[i], 3);
	}
	KT_ASSERT_EQ(current->kmap_ctrl.idx, depth * KM_INCR);
	for (int i = depth - 1; i >= 0; i--) {
		KT_ASSERT_EQ(bad_words(addr[i], pages[i], 3), 0);
		kunmap_local(addr[i]);
		KT_ASSERT(pte_none(*virt_to_kpte((unsigned long)addr[i])));
	}
	KT_ASSERT_EQ(current->kmap_ctrl.idx, 0);
}

static void unmap_accepts_any_address_in_page(void)
{
	char *p = kmap_local_page(pages[0]);

	kunmap_local(p + PAGE_SIZE - 1);
	KT_ASSERT_EQ(current->kmap_ctrl.idx, 0);
	p = kmap_atomic(pages[1]);
	kunmap_atomic(p + 123);
	KT_ASSERT_EQ(current->kmap_ctrl.idx, 0);
}

static void lowmem_page_maps_to_page_address(void)
{
	struct page *low = alloc_page(ZONE_LOWMEM);
	void *p;

	KT_ASSERT(low && !PageHighMem(low));
	p = kmap_local_page(low);
	KT_ASSERT(p == page_address(low));
	KT_ASSERT_EQ(current->kmap_ctrl.idx, 0);      /* no slot pushed */
	KT_ASSERT(pte_none(*virt_to_kpte(__fix_to_virt(FIX_KMAP_BEGIN))));
	kunmap_local(p);
	/* By pfn too: a slot would be a second VIVT alias of the direct map. */
	p = kmap_local_pfn(page_to_pfn(low));
	KT_ASSERT(p == page_address(low));
	KT_ASSERT_EQ(current->kmap_ctrl.idx, 0);
	KT_ASSERT(pte_none(*virt_to_kpte(__fix_to_virt(FIX_KMAP_BEGIN))));
	kunmap_local(p);
	p = kmap_atomic_pfn(page_to_pfn(low));
	KT_ASSERT(p == page_address(low));
	KT_ASSERT_EQ(current->kmap_ctrl.idx, 0);
	kunmap_atomic(p);
	KT_ASSERT(kmap(low) == page_address(low));
	kunmap(low);
	__free_page(low);
}

static void kmap_high_get_returns_pkmap_address(void)
{
	struct page *pg = pages[5];
	void *k = kmap(pg);
	unsigned int nr = PKMAP_NR(k);
	int before = pkmap_slot_count(nr);
	void *l = kmap_local_page(pg);

	KT_ASSERT(l == k);                      /* no second alias */
	KT_ASSERT_EQ(pkmap_slot_count(nr), before + 1);
	KT_ASSERT_EQ(current->kmap_ctrl.idx, 0);
	kunmap_local(l);
	KT_ASSERT_EQ(pkmap_slot_count(nr), before);
	KT_ASSERT(kmap_to_page(k) == pg);
	kunmap(pg);
}

static void pkmap_wraps_around_and_flush_unused_frees(void)
{
	/* More distinct kmap()s than slots: the pool must recycle. */
	static struct page *many[LAST_PKMAP + 64];
	unsigned int n = sizeof(many) / sizeof(many[0]), bad = 0;

	for (unsigned int i = 0; i < n; i++) {
		many[i] = alloc_page(ZONE_HIGHMEM);
		KT_ASSERT(many[i]);
		uint32_t *p = kmap(many[i]);
		fill(p, many[i], 4);
		kunmap(many[i]);
	}
	for (unsigned int i = 0; i < n; i++) {
		uint32_t *p = kmap(many[i]);
		bad += bad_words(p, many[i], 4);
		kunmap(many[i]);
	}
	KT_ASSERT_EQ(bad, 0);
	/* Freed while they keep their pkmap slots: no flush needed first. */
	for (unsigned int i = 0; i < n; i++) {
		__free_page(many[i]);
		KT_ASSERT(page_address(many[i]) == NULL);
	}
}

static void memcpy_and_clear_helpers(void)
{
	static char buf[PAGE_SIZE];

	memset_page(pages[7], 0, 0x5a, PAGE_SIZE);
	memcpy_from_page(buf, pages[7], 100, 16);
	KT_ASSERT(buf[0] == 0x5a && buf[15] == 0x5a);
	memcpy_page(pages[8], 0, pages[7], 0, PAGE_SIZE);
	clear_highpage(pages[7]);
	memcpy_from_page(buf, pages[8], 0, PAGE_SIZE);
	KT_ASSERT(buf[4095] == 0x5a);
	memcpy_from_page(buf, pages[7], 0, PAGE_SIZE);
	KT_ASSERT(buf[4095] == 0);
	copy_highpage(pages[9], pages[8]);
	memcpy_from_page(buf, pages[9], 2000, 1);
	KT_ASSERT(buf[0] == 0x5a);
}

KTEST_MAIN(KTEST(alloc_pages_once), KTEST(local_write_then_kmap_and_local_read),
	   KTEST(kmap_write_then_local_read), KTEST(nested_maps_full_depth),
	   KTEST(unmap_accepts_any_address_in_page), KTEST(lowmem_page_maps_to_page_address),
	   KTEST(kmap_high_get_returns_pkmap_address),
	   KTEST(pkmap_wraps_around_and_flush_unused_frees), KTEST(memcpy_and_clear_helpers))
