/* A store through NULL must abort: page 0 is unmapped. */
#include <stdio.h>
#include <stdint.h>
#include "ktest.h"

int app_main(void)
{
	volatile uint32_t *volatile p = NULL;

	*p = 1;
	printf("store to NULL succeeded!\n");
	return 0;
}
