/* AT91 peripheral pages inside the fixmap MiB (see sys-pages.c). */
#ifndef BOARD_AT91_SYS_PAGES_H
#define BOARD_AT91_SYS_PAGES_H

/* Map the system-controller and TC pages, identity and uncached. Call with
 * the MMU on, before the first device access after arch_mmu_init(). */
void board_map_sys_pages(void);

#endif
