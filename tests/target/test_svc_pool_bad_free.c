/* Freeing a pointer that is not a block of the pool must be diagnosed. */
#include <lokal/mempool.h>
#include "ktest.h"

static struct mempool pool;
static uint64_t region[64];

int app_main(void)
{
	mempool_init(&pool, region, sizeof(region), 128);
	mempool_free(&pool, (char *)mempool_try_alloc(&pool) + 4);
	return 0;
}
