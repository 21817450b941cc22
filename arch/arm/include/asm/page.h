/* ARM small pages: 4 KiB, as the host's pages (arch/sim relies on it). */
#ifndef ASM_PAGE_H
#define ASM_PAGE_H

#include <stdint.h>

#define PAGE_SHIFT      12
#define PAGE_SIZE       (1ul << PAGE_SHIFT)
#define PAGE_MASK       (~(PAGE_SIZE - 1))

typedef uint32_t phys_addr_t;

#endif
