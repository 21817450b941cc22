/* A load from the unmapped highmem VA hole must abort with the right FAR. */
#include <stdio.h>
#include <stdint.h>
#include <asm/memory.h>
#include "ktest.h"

int app_main(void)
{
	volatile uint32_t *p = (volatile uint32_t *)(LOWMEM_END + 0x10);

	printf("reading 0x%08lx\n", (unsigned long)(uintptr_t)p);
	printf("read 0x%08lx: the hole is mapped!\n", (unsigned long)*p);
	return 0;
}
