/* Boot-time services arch/arm offers the portable kernel. */
#ifndef ASM_SETUP_H
#define ASM_SETUP_H

#include <asm/memory.h>

/* Print CPU, cache, control-register and memory facts read from the hardware. */
void arch_print_banner(void);
/* First physical address after the kernel image, stacks and heap (page aligned). */
phys_addr_t arch_kernel_end(void);

/* Exit status of a run ended by an unexpected exception. */
#define FAULT_EXIT_STATUS 4

#endif
