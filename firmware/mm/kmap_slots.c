/*
 * The fixmap slots of local kmaps: one table of PTE pointers shared by
 * highmem.c and whichever scheme the build links.
 *
 * The arch's virt_to_kpte() walks and range-checks; the switch path
 * touches every slot a thread holds, so each slot's PTE is looked up once.
 * (Linux keeps one pointer and indexes "kmap_pte - idx"; a table assumes
 * nothing about how the arch lays out its fixmap entries.)
 */
#include "kmap_scheme.h"

pte_t *kmap_slot_ptes[KM_MAX_IDX];

void kmap_slots_init(void)
{
	for (int i = 0; i < KM_MAX_IDX; i++)
		kmap_slot_ptes[i] = virt_to_kpte(kmap_slot_va(i));
}
