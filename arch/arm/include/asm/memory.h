/*
 * ARM virtual memory layout.
 *
 * Lowmem is identity mapped (VA == PA) with 1 MiB sections: the image is
 * loaded and linked at its physical address, so boot code needs no
 * relocation trick before the MMU is on. Highmem's VA range
 * [LOWMEM_END, RAM_END) is left unmapped so a stray pointer into it aborts.
 * Pkmap and fixmap sit at the top of the address space, each in its own
 * coarse (4 KiB page) second-level table.
 */
#ifndef ASM_MEMORY_H
#define ASM_MEMORY_H

#include <stdint.h>
#include <generated/config.h>
#include <board.h>

#include <asm/page.h>

#define PHYS_OFFSET     BOARD_RAM_BASE
#define PAGE_OFFSET     BOARD_RAM_BASE           /* identity map */
#define RAM_SIZE        ((unsigned long)CONFIG_RAM_MB << 20)
#define LOWMEM_SIZE     ((unsigned long)CONFIG_LOWMEM_MB << 20)
#define LOWMEM_END      (PAGE_OFFSET + LOWMEM_SIZE)   /* first VA of the hole */
#define HIGHMEM_VA_END  (PAGE_OFFSET + RAM_SIZE)

/*
 * Thread stacks: each a run of pages with an unmapped guard page below it
 * (arch/arm/mm/stack.c), in coarse tables of their own. The pages mapped
 * here are mapped nowhere else, so they have no VIVT alias.
 */
#define STACK_AREA_BASE 0xFF000000ul
#define STACK_AREA_SIZE 0x00400000ul

/* Pkmap: LAST_PKMAP pages ending 1 MiB below the fixmap area. */
#define PKMAP_BASE      0xFFD00000ul
/*
 * Fixmap: one coarse table covering the top MiB. Slot 0 is FIXADDR_TOP and
 * slots count down from it; the high exception-vector page (0xFFFF0000)
 * shares the table, above the slots.
 */
#define FIXADDR_START   0xFFF00000ul
#define FIXADDR_TOP     0xFFFDF000ul
#define VECTORS_BASE    0xFFFF0000ul

static inline void *__va(phys_addr_t pa)
{
	return (void *)(uintptr_t)(pa - PHYS_OFFSET + PAGE_OFFSET);
}

static inline phys_addr_t __pa(const void *va)
{
	return (phys_addr_t)((uintptr_t)va - PAGE_OFFSET + PHYS_OFFSET);
}

#endif
