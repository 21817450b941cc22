/*
 * The AT91 peripherals sit at 0xFFFA0000 (TC block) and 0xFFFFE000-
 * 0xFFFFFFFF (system controller): inside the top MiB, which arch/arm covers
 * with the fixmap's coarse table (kmap_local slots below FIXADDR_TOP, the
 * high vector page at 0xFFFF0000). A 1 MiB identity section there, as
 * board_io_regions[] would make, would be overwritten by that table.
 *
 * So the board puts 4 KiB identity, uncached, unbuffered entries for just
 * those pages into the fixmap table itself, through virt_to_kpte() and
 * set_pte_ext() like every other table write. The assertions below prove
 * the pages are neither a kmap_local slot (with DEBUG_HIGHMEM's guard slots
 * too) nor the vector page, so kmap_local never sees or clears them.
 * The long-term form of this is a VA offset in board_io_region (see the
 * request in board/README.md).
 */
#include <stdint.h>
#include <asm/memory.h>
#include <asm/pgtable.h>
#include <asm/fixmap.h>
#include <asm/tlbflush.h>
#include <board.h>
#include "sys-pages.h"

#define LOWEST_KMAP_SLOT  __fix_to_virt(FIX_KMAP_END)

_Static_assert(BOARD_TCB0_PAGE >= FIXADDR_START && BOARD_TCB0_PAGE < LOWEST_KMAP_SLOT,
	       "TC page collides with a kmap_local slot");
_Static_assert(BOARD_SYS_PAGE0 > FIXADDR_TOP && BOARD_SYS_PAGE0 > VECTORS_BASE,
	       "system controller page collides with the fixmap or the vector page");
_Static_assert(BOARD_SYS_PAGE1 == BOARD_SYS_PAGE0 + PAGE_SIZE, "two adjacent pages");

static const uint32_t sys_pages[] = { BOARD_TCB0_PAGE, BOARD_SYS_PAGE0, BOARD_SYS_PAGE1 };

void board_map_sys_pages(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(sys_pages) / sizeof(sys_pages[0]); i++) {
		set_pte_ext(virt_to_kpte(sys_pages[i]),
			    pfn_pte(sys_pages[i] >> PAGE_SHIFT, PAGE_KERNEL_NOCACHE));
		local_flush_tlb_kernel_page(sys_pages[i]);
	}
}
