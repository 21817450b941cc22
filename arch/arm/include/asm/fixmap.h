/*
 * Fixmap: compile-time virtual addresses at the top of the address space.
 * Only the local-kmap slots live here. Index 0 is the highest page and
 * addresses count downward, as in Linux, so the slot table is walked with
 * "kmap_pte - idx".
 */
#ifndef ASM_FIXMAP_H
#define ASM_FIXMAP_H

#include <asm/memory.h>
#include <asm/kmap_size.h>

#define NR_CPUS 1

enum fixed_addresses {
	FIX_KMAP_BEGIN = 0,
	FIX_KMAP_END = FIX_KMAP_BEGIN + (KM_MAX_IDX * NR_CPUS) - 1,
	__end_of_fixed_addresses
};

#define __fix_to_virt(x)  ((unsigned long)FIXADDR_TOP - ((unsigned long)(x) << PAGE_SHIFT))
#define __virt_to_fix(x)  (((unsigned long)FIXADDR_TOP - ((unsigned long)(x) & PAGE_MASK)) >> PAGE_SHIFT)

#endif
