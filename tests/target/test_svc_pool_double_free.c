/* Freeing a pool block twice must be diagnosed, naming thread, pool and block. */
#include <lokal/mempool.h>
#include "ktest.h"

static struct mempool pool;
static uint64_t region[64];

int app_main(void)
{
	void *b;

	mempool_init(&pool, region, sizeof(region), 128);
	b = mempool_try_alloc(&pool);
	mempool_free(&pool, b);
	mempool_free(&pool, b);
	return 0;
}
