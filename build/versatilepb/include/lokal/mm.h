#include <asm/memory.h>
void mm_init(phys_addr_t);
