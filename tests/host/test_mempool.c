/*
 * Fixed-block pools on the real scheduler: every block once, alignment,
 * odd block sizes, a freed block handed to the most urgent waiter, and a
 * foreign pointer, an inner pointer or a double free reported with the
 * thread and the address.
 */
#include <stdio.h>
#include "host_test.h"
#include <lokal/mempool.h>

static struct mempool pool;
static uint64_t region[512];            /* 4 KiB */

static void every_block_once(void **state)
{
	static const size_t sizes[] = { 1, 8, 24, 100, 128, 1000 };

	(void)state;
	for (unsigned int s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
		unsigned int n = mempool_init(&pool, (char *)region + 4, sizeof(region) - 4, sizes[s]);
		char *seen[512];
		size_t stride = MEMPOOL_STRIDE(sizes[s]), bs = stride - 8;      /* an 8-byte header each */
		size_t room = sizeof(region) - 8;       /* from region + 4 rounded up to 8 */

		/* 8 times an odd number, with room for the size asked. */
		assert_true(stride % 8 == 0 && (stride / 8) % 2 == 1 && bs >= sizes[s]);
		/* Blocks and their headers fill the region: one more would not fit. */
		assert_true(n * stride <= room);
		assert_true((n + 1) * stride > room);
		for (unsigned int i = 0; i < n; i++) {
			seen[i] = mempool_try_alloc(&pool);
			assert_non_null(seen[i]);
			assert_int_equal((uintptr_t)seen[i] % 8, 0);
			assert_true(seen[i] >= (char *)region + 4);
			assert_true(seen[i] + bs <= (char *)region + sizeof(region));
			memset(seen[i], 0xa5, bs);      /* must not touch a header */
			for (unsigned int k = 0; k < i; k++)
				assert_true(seen[k] + bs <= seen[i] || seen[i] + bs <= seen[k]);
		}
		assert_null(mempool_try_alloc(&pool));
		assert_int_equal(mempool_nr_free(&pool), 0);
		for (unsigned int i = 0; i < n; i++)
			mempool_free(&pool, seen[i]);
		assert_int_equal(mempool_nr_free(&pool), n);
	}
}

/* MEMPOOL_REGION_SIZE(size, n) holds n blocks, wherever the region starts. */
static void region_size_macro_holds_its_blocks(void **state)
{
	static const size_t sizes[] = { 1, 8, 16, 24, 100, 128, 1000 };

	(void)state;
	for (unsigned int s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++)
		for (unsigned int off = 0; off < 8; off++) {
			size_t size = MEMPOOL_REGION_SIZE(sizes[s], 3);

			assert_true(off + size <= sizeof(region));
			assert_true(mempool_init(&pool, (char *)region + off, size, sizes[s]) >= 3);
		}
}

struct waiter {
	char tag;
	void *got;
	int result;
};
static char order[8];
static int norder;

static void alloc_waiter(void *arg)
{
	struct waiter *w = arg;

	w->result = mempool_alloc(&pool, &w->got, MAX_SCHEDULE_TIMEOUT);
	order[norder++] = w->tag;
}

static void freed_block_goes_to_most_urgent_waiter(void **state)
{
	struct waiter w[3] = { { 'a', NULL, 1 }, { 'B', NULL, 1 }, { 'c', NULL, 1 } };
	static const int prio[3] = { 1, 2, 1 };
	struct thread *t[3];
	void *b[64];
	unsigned int n;

	(void)state;
	norder = 0;
	n = mempool_init(&pool, region, 512, 128);
	assert_int_equal(n, 3);
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(mempool_alloc(&pool, &b[i], 0), 0);
	for (int i = 0; i < 3; i++)
		t[i] = host_spawn("alloc", alloc_waiter, &w[i], HOST_PRIO_MAIN + prio[i]);
	assert_int_equal(norder, 0);
	for (unsigned int i = 0; i < 3; i++)
		mempool_free(&pool, b[i]);
	order[norder] = 0;
	assert_string_equal(order, "Bac");
	assert_ptr_equal(w[1].got, b[0]);
	assert_ptr_equal(w[0].got, b[1]);
	assert_ptr_equal(w[2].got, b[2]);
	for (int i = 0; i < 3; i++) {
		thread_join(t[i]);
		assert_int_equal(w[i].result, 0);
		mempool_free(&pool, w[i].got);          /* handed over: still allocated */
	}
	assert_int_equal(mempool_nr_free(&pool), 3);
}

static void *bad_ptr;
static char ptr_hex[32];

static void do_free(void *arg)
{
	(void)arg;
	mempool_free(&pool, bad_ptr);
}

static void bad_frees_are_reported(void **state)
{
	uint64_t other;
	void *b;

	(void)state;
	mempool_init(&pool, region, sizeof(region), 128);
	b = mempool_try_alloc(&pool);
	/* Not a pool address. */
	bad_ptr = &other;
	snprintf(ptr_hex, sizeof(ptr_hex), "%p", bad_ptr);
	EXPECT_PANIC(do_free, NULL, "mempool_free(", ptr_hex, "thread 'main'", "not a block of this pool");
	/* Inside a block. */
	bad_ptr = (char *)b + 8;
	snprintf(ptr_hex, sizeof(ptr_hex), "%p", bad_ptr);
	EXPECT_PANIC(do_free, NULL, ptr_hex, "thread 'main'", "not a block of this pool");
	/* Twice. */
	mempool_free(&pool, b);
	bad_ptr = b;
	snprintf(ptr_hex, sizeof(ptr_hex), "%p", bad_ptr);
	EXPECT_PANIC(do_free, NULL, ptr_hex, "thread 'main'", "double free");
	/* NULL. */
	bad_ptr = NULL;
	EXPECT_PANIC(do_free, NULL, "thread 'main'", "not a block of this pool");
	assert_int_equal(mempool_nr_free(&pool), pool.nr_blocks);
}

/*
 * The header is not trusted alone: a pointer inside a block, with the
 * pool's address in the word before it (a struct that records its pool),
 * is still no block; a block whose header a write past the end of the
 * block before it overwrote is reported as that, not freed.
 */
static void header_is_not_trusted_alone(void **state)
{
	struct mempool **b, *c;
	unsigned char *a;

	(void)state;
	mempool_init(&pool, region, sizeof(region), 128);
	b = mempool_try_alloc(&pool);
	b[0] = &pool;
	bad_ptr = b + 1;
	snprintf(ptr_hex, sizeof(ptr_hex), "%p", bad_ptr);
	EXPECT_PANIC(do_free, NULL, ptr_hex, "thread 'main'", "not a block of this pool");
	a = mempool_try_alloc(&pool);
	c = mempool_try_alloc(&pool);
	assert_ptr_equal((char *)c, (char *)a + pool.stride);
	memset(a, 0, pool.stride);                      /* 8 bytes too many: c's header */
	bad_ptr = c;
	snprintf(ptr_hex, sizeof(ptr_hex), "%p", bad_ptr);
	EXPECT_PANIC(do_free, NULL, ptr_hex, "thread 'main'", "header was overwritten");
	mempool_free(&pool, a);
	mempool_free(&pool, b);
}

/* A pool never set up (zeroed, as a static one is) is reported by a free too. */
static struct mempool unset_pool;
static void do_free_unset(void *arg)
{
	mempool_free(&unset_pool, arg);
}

static void free_to_unset_pool_is_reported(void **state)
{
	void *b;

	(void)state;
	mempool_init(&pool, region, sizeof(region), 128);
	b = mempool_try_alloc(&pool);
	EXPECT_PANIC(do_free_unset, b, "mempool_free", "thread 'main'", "not an initialised memory pool");
}

/* Every user of a pool uses its region: one thread's local map cannot be it. */
static void init_local_region(void *arg)
{
	void *r = kmap_local_page(host_alloc(ZONE_HIGHMEM));

	(void)arg;
	mempool_init(&pool, r, PAGE_SIZE, 64);
}

static void local_map_region_is_refused(void **state)
{
	(void)state;
	EXPECT_PANIC(init_local_region, NULL, "mempool_init(", "thread 'main'", "kmap_local address");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(every_block_once),
		HOST_TEST(freed_block_goes_to_most_urgent_waiter),
		HOST_TEST(region_size_macro_holds_its_blocks),
		HOST_TEST(bad_frees_are_reported),
		HOST_TEST(header_is_not_trusted_alone),
		HOST_TEST(free_to_unset_pool_is_reported),
		HOST_TEST(local_map_region_is_refused),
	};

	return host_run_groups("mempool", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
