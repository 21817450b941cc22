/*
 * Host ("sim") memory layout: the same names as arch/arm's memory.h, but
 * the windows are host addresses chosen at run time by arch/sim/sim.c.
 *
 *   PAGE_OFFSET      host view of lowmem (the direct map; highmem part of
 *                    this view is PROT_NONE, as the VA hole is on target)
 *   PKMAP_BASE       LAST_PKMAP host pages, one per pkmap slot
 *   FIXADDR_TOP      kmap_local slot 0; slots count down from it
 *
 * Window pages are managed by the cache model (arch/sim/model.c).
 */
#ifndef ASM_MEMORY_H
#define ASM_MEMORY_H

#include <stdint.h>
#include <generated/config.h>

#include <asm/page.h>

extern uintptr_t sim_page_offset;
extern unsigned long sim_pkmap_base;
extern unsigned long sim_fixaddr_start;
extern unsigned long sim_fixaddr_top;

#define PHYS_OFFSET     0u
#define PAGE_OFFSET     sim_page_offset
#define RAM_SIZE        ((unsigned long)CONFIG_RAM_MB << 20)
#define LOWMEM_SIZE     ((unsigned long)CONFIG_LOWMEM_MB << 20)
#define LOWMEM_END      (PAGE_OFFSET + LOWMEM_SIZE)
#define HIGHMEM_VA_END  (PAGE_OFFSET + RAM_SIZE)

#define PKMAP_BASE      sim_pkmap_base
#define FIXADDR_START   sim_fixaddr_start
#define FIXADDR_TOP     sim_fixaddr_top

static inline void *__va(phys_addr_t pa)
{
	return (void *)(sim_page_offset + (uintptr_t)(pa - PHYS_OFFSET));
}

static inline phys_addr_t __pa(const void *va)
{
	return (phys_addr_t)((uintptr_t)va - sim_page_offset + PHYS_OFFSET);
}

#endif
