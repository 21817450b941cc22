/*
 * Streaming DMA (lokal/dma-mapping.h) against the cache model, with
 * arch/sim's bus master as the device: it reads and writes physical
 * memory, never the cache. Each test is about one maintenance step (its
 * name says which: tests/host/mutants.sh deletes that step and expects a test
 * named for it to fail); the model's DMA rules turn a missing step into a
 * violation, and the data is compared too.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "host_test.h"
#include <errno.h>
#include <lokal/dma-mapping.h>
#include <lokal/console-dma.h>
#include <lokal/dma-memcpy.h>
#include <lokal/sched-internal.h>

/* cmocka installs its own SIGSEGV handler per test: the model's goes back first. */
static void begin(void **state)
{
	(void)state;
	sim_verbose = true;
	sim_install_fault_handler();
}

static phys_addr_t pa_of(const struct page *p)
{
	return host_pa(p);
}

/* The device reads len bytes at addr; they must equal want. */
static void device_reads(dma_addr_t addr, const void *want, size_t len)
{
	static uint8_t buf[2 * PAGE_SIZE];

	sim_dma_read(addr, buf, len);
	assert_memory_equal(buf, want, len);
}

static void fill(uint8_t *buf, size_t len, uint8_t seed)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (uint8_t)(seed + i * 7);
}

/* Read every line of the page through va (the D-cache allocates on reads). */
static void touch(const volatile uint8_t *va)
{
	for (unsigned int i = 0; i < PAGE_SIZE; i += 32)
		(void)va[i];
}

/* ---- the model's DMA rules, on the cache primitives alone ---- */

static void model_device_read_of_dirty_line(void **state)
{
	struct page *p = host_alloc(ZONE_LOWMEM);
	char *va = page_address(p);
	char buf[16];

	begin(state);
	sim_verbose = false;         /* provoked on purpose: no MODEL VIOLATION line in the log */
	host_dirty(va, "newest in cache");
	sim_dma_read(pa_of(p), buf, sizeof(buf));
	assert_int_equal(sim_violations(SIM_DMA_READ_DIRTY), 1);
	assert_non_null(strstr(sim_last_violation(), "device read"));
	sim_clear_violations();
	cpu_dcache_clean_area(va, 32);
	sim_dma_read(pa_of(p), buf, sizeof(buf));
	assert_int_equal(sim_violations(SIM_NR_VIOLATIONS), 0);
	assert_string_equal(buf, "newest in cache");
	sim_verbose = true;
}

static void model_cpu_read_of_line_older_than_device_write(void **state)
{
	struct page *p = host_alloc(ZONE_LOWMEM);
	volatile char *va = page_address(p);

	begin(state);
	sim_verbose = false;         /* provoked on purpose: no MODEL VIOLATION line in the log */
	touch((volatile uint8_t *)va);          /* lines filled before the device writes */
	sim_dma_write(pa_of(p), "device", 7);
	(void)va[0];
	assert_int_equal(sim_violations(SIM_DMA_STALE_READ), 1);
	sim_clear_violations();
	cpu_dcache_inv_area((void *)va, PAGE_SIZE);
	assert_string_equal((const char *)va, "device");
	assert_int_equal(sim_violations(SIM_NR_VIOLATIONS), 0);
	sim_verbose = true;
}

static void model_write_back_over_device_write(void **state)
{
	struct page *p = host_alloc(ZONE_LOWMEM);
	char *va = page_address(p);

	begin(state);
	sim_verbose = false;         /* provoked on purpose: no MODEL VIOLATION line in the log */
	/* Dirties bytes 8.. of line 0: the half line the device then writes
	 * (the ARM926 writes back dirty halves only). */
	host_dirty(va + 8, "cpu");
	sim_dma_write(pa_of(p), "dev", 4);      /* the device writes bytes 0..3 of it */
	cpu_dcache_clean_area(va, 32);
	assert_int_equal(sim_violations(SIM_DMA_CLOBBER), 1);
	sim_clear_violations();
	sim_verbose = true;
}

/* Where the CPU reaches the page under test. */
enum where { LOWMEM, OWN_MAP, PKMAP };

/* Run one case on a fresh page, reached the way where says. */
static void on_page(void (*fn)(struct page *, uint8_t *), enum where where)
{
	struct page *p = host_alloc(where == LOWMEM ? ZONE_LOWMEM : ZONE_HIGHMEM);
	uint8_t *va = where == LOWMEM ? page_address(p) : where == PKMAP ? kmap(p) : kmap_local_page(p);

	sim_install_fault_handler();
	fn(p, va);
	if (where == PKMAP)
		kunmap(p);
	else if (where == OWN_MAP)
		kunmap_local(va);
}

/* ---- to the device: clean ---- */

/* The CPU's data reaches the device; the CPU's own address keeps it. */
static void to_device_case(struct page *p, uint8_t *va)
{
	uint8_t want[PAGE_SIZE];
	dma_addr_t a;

	touch(va);
	fill(want, sizeof(want), (uint8_t)page_to_pfn(p));
	memcpy(va, want, sizeof(want));
	a = dma_map_page(p, 0, PAGE_SIZE, DMA_TO_DEVICE);
	assert_false(dma_mapping_error(a));
	assert_int_equal(a, pa_of(p));
	device_reads(a, want, PAGE_SIZE);
	dma_unmap_page(a, PAGE_SIZE, DMA_TO_DEVICE);
	assert_memory_equal(va, want, PAGE_SIZE);
	assert_int_equal(dma_mappings_live(), 0);
}

static void dma_to_device_lowmem(void **state)
{
	(void)state;
	on_page(to_device_case, LOWMEM);
}

/* The caller's own local map holds the dirty lines: cleaned at its address, the map stays. */
static void dma_to_device_highmem_own_map(void **state)
{
	(void)state;
	on_page(to_device_case, OWN_MAP);
}

/* A kmap()ed page: its pkmap address holds the lines (Linux's kmap_high_get path). */
static void dma_to_device_highmem_pkmap(void **state)
{
	(void)state;
	on_page(to_device_case, PKMAP);
}

/* Two physically adjacent lowmem pages in one mapping. */
static void dma_to_device_two_pages(void **state)
{
	struct page *p = host_alloc(ZONE_LOWMEM), *q = host_alloc(ZONE_LOWMEM);
	uint8_t want[2 * PAGE_SIZE];
	dma_addr_t a;

	begin(state);
	if (q != p + 1)
		skip();
	fill(want, sizeof(want), 4);
	touch(page_address(p));
	touch(page_address(q));
	memcpy(page_address(p), want, sizeof(want));
	a = dma_map_page(p, 100, sizeof(want) - 200, DMA_TO_DEVICE);
	device_reads(a, want + 100, sizeof(want) - 200);
	dma_unmap_page(a, sizeof(want) - 200, DMA_TO_DEVICE);
}

/* ---- from the device: invalidate at map, and again at unmap ---- */

/*
 * The CPU wrote the buffer before handing it over (its data is the
 * device's to replace); a whole-cache clean during the transfer
 * (kmap_flush_unused by anyone) would write those lines back over the
 * device's data unless the map dropped them.
 */
static void from_device_evict_case(struct page *p, uint8_t *va)
{
	uint8_t want[PAGE_SIZE];
	dma_addr_t a;

	touch(va);
	memset(va, 0x5a, PAGE_SIZE);            /* dirty lines in the buffer */
	a = dma_map_page(p, 0, PAGE_SIZE, DMA_FROM_DEVICE);
	fill(want, sizeof(want), 5);
	sim_dma_write(a, want, PAGE_SIZE);
	kmap_flush_unused();                    /* every dirty line written back */
	dma_unmap_page(a, PAGE_SIZE, DMA_FROM_DEVICE);
	assert_memory_equal(va, want, PAGE_SIZE);
}

static void dma_from_device_lowmem_evict_during_transfer(void **state)
{
	(void)state;
	on_page(from_device_evict_case, LOWMEM);
}

static void dma_from_device_highmem_evict_during_transfer(void **state)
{
	(void)state;
	on_page(from_device_evict_case, OWN_MAP);
}

/*
 * A buffer that starts and ends inside a line, between bytes the CPU
 * owns: those neighbours survive the map (partial lines cleaned before the
 * invalidate), and the CPU may read them during the transfer, which brings
 * the line back with the buffer's old bytes: the unmap drops it again.
 */
#define PART_OFF 100u
#define PART_LEN 1000u
static void partial_case(struct page *p, uint8_t *bytes)
{
	char *va = (char *)bytes;

	uint8_t want[PART_LEN];
	dma_addr_t a;

	touch(bytes);
	memset(va + PART_OFF, 0, PART_LEN);
	strcpy(va + PART_OFF - 4, "hd!");       /* the CPU's bytes in the first line */
	strcpy(va + PART_OFF + PART_LEN, "tl!");        /* and in the last */
	a = dma_map_page(p, PART_OFF, PART_LEN, DMA_FROM_DEVICE);
	assert_string_equal(va + PART_OFF - 4, "hd!");  /* the CPU reads its own bytes */
	fill(want, sizeof(want), 6);
	sim_dma_write(a, want, PART_LEN);
	dma_unmap_page(a, PART_LEN, DMA_FROM_DEVICE);
	assert_memory_equal(va + PART_OFF, want, PART_LEN);
	assert_string_equal(va + PART_OFF + PART_LEN, "tl!");
	assert_string_equal(va + PART_OFF - 4, "hd!");
}

/*
 * A buffer the device writes that shares a cache line with other data is
 * reported where it is mapped (DEBUG_HIGHMEM), naming the thread and the
 * shared line; an aligned one, and one the device only reads, are not.
 */
static void dma_misaligned_from_device_is_reported(void **state)
{
	struct page *p = host_alloc(ZONE_LOWMEM);
	unsigned long pa = (unsigned long)host_pa(p);
	unsigned int warns = warn_count;
	char out[2048], want[64];
	FILE *f = tmpfile();
	size_t n;
	int saved;
	dma_addr_t a;

	(void)state;
	assert_non_null(f);
	fflush(stdout);
	saved = dup(1);
	dup2(fileno(f), 1);
	a = dma_map_page(p, PART_OFF, PART_LEN, DMA_FROM_DEVICE);
	dma_unmap_page(a, PART_LEN, DMA_FROM_DEVICE);
	a = dma_map_page(p, 0, 64, DMA_BIDIRECTIONAL);          /* aligned and sized */
	dma_unmap_page(a, 64, DMA_BIDIRECTIONAL);
	a = dma_map_page(p, PART_OFF, PART_LEN, DMA_TO_DEVICE); /* the device only reads */
	dma_unmap_page(a, PART_LEN, DMA_TO_DEVICE);
	a = dma_map_page(p, 64, 40, DMA_BIDIRECTIONAL);         /* aligned start, ragged end */
	dma_unmap_page(a, 40, DMA_BIDIRECTIONAL);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(f);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = 0;
	fclose(f);
	fputs(out, stdout);
	if (!CONFIG_DEBUG_HIGHMEM) {
		assert_int_equal(warn_count, warns);
		return;
	}
	assert_int_equal(warn_count, warns + 2);
	assert_non_null(strstr(out, "thread 'main'"));
	snprintf(want, sizeof(want), "(0x%08lx, %u bytes, DMA_FROM_DEVICE)", pa + PART_OFF, PART_LEN);
	assert_non_null(strstr(out, want));
	snprintf(want, sizeof(want), "(at 0x%08lx)", (pa + PART_OFF) & ~31ul);
	assert_non_null(strstr(out, want));
	snprintf(want, sizeof(want), "(at 0x%08lx)", (pa + 104) & ~31ul);
	assert_non_null(strstr(out, want));
}

static void dma_from_device_lowmem_partial_lines_cpu_read_during(void **state)
{
	(void)state;
	on_page(partial_case, LOWMEM);
}

static void dma_from_device_highmem_partial_lines_cpu_read_during(void **state)
{
	(void)state;
	on_page(partial_case, OWN_MAP);
}

static void dma_from_device_pkmap_partial_lines_cpu_read_during(void **state)
{
	(void)state;
	on_page(partial_case, PKMAP);
}

/* ---- both ways: clean+invalidate at map, invalidate at unmap ---- */

static void dma_bidirectional(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	uint8_t *va = kmap_local_page(p), out[256], in[256];
	dma_addr_t a;

	begin(state);
	touch(va);
	fill(out, sizeof(out), 7);
	memcpy(va, out, sizeof(out));
	a = dma_map_page(p, 0, sizeof(out), DMA_BIDIRECTIONAL);
	device_reads(a, out, sizeof(out));
	fill(in, sizeof(in), 8);
	sim_dma_write(a, in, sizeof(in));
	kmap_flush_unused();
	dma_unmap_page(a, sizeof(in), DMA_BIDIRECTIONAL);
	assert_memory_equal(va, in, sizeof(in));
	kunmap_local(va);
}

/* ---- sync calls: the mapping stays, ownership moves ---- */

static void dma_sync_for_cpu_then_device(void **state)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	uint8_t *va = kmap_local_page(p), in[512];
	dma_addr_t a;

	begin(state);
	a = dma_map_page(p, 0, sizeof(in), DMA_FROM_DEVICE);
	fill(in, sizeof(in), 9);
	sim_dma_write(a, in, sizeof(in));
	dma_sync_single_for_cpu(a, sizeof(in), DMA_FROM_DEVICE);
	assert_memory_equal(va, in, sizeof(in));        /* lines now hold the first data */
	dma_sync_single_for_device(a, sizeof(in), DMA_FROM_DEVICE);
	fill(in, sizeof(in), 10);
	sim_dma_write(a, in, sizeof(in));
	dma_unmap_page(a, sizeof(in), DMA_FROM_DEVICE);
	assert_memory_equal(va, in, sizeof(in));
	kunmap_local(va);
}

/* ---- scatterlists ---- */

static void dma_sg_lowmem_highmem_pkmap(void **state)
{
	struct page *pg[3] = { host_alloc(ZONE_LOWMEM), host_alloc(ZONE_HIGHMEM),
			       host_alloc(ZONE_HIGHMEM) };
	uint8_t *va[3], want[3][600];
	struct scatterlist sg[3];

	begin(state);
	va[0] = page_address(pg[0]);
	va[1] = kmap_local_page(pg[1]);
	va[2] = kmap(pg[2]);
	sg_init_table(sg, 3);
	for (int i = 0; i < 3; i++) {
		touch(va[i]);
		fill(want[i], sizeof(want[i]), (uint8_t)(20 + i));
		memcpy(va[i] + 40 * i, want[i], sizeof(want[i]));
		sg_set_page(&sg[i], pg[i], sizeof(want[i]), 40 * i);
	}
	assert_int_equal(dma_map_sg(sg, 3, DMA_TO_DEVICE), 3);
	for (int i = 0; i < 3; i++) {
		assert_int_equal(sg_dma_len(&sg[i]), sizeof(want[i]));
		device_reads(sg_dma_address(&sg[i]), want[i], sizeof(want[i]));
	}
	dma_unmap_sg(sg, 3, DMA_TO_DEVICE);
	assert_int_equal(dma_map_sg(sg, 3, DMA_FROM_DEVICE), 3);
	for (int i = 0; i < 3; i++) {
		fill(want[i], sizeof(want[i]), (uint8_t)(30 + i));
		sim_dma_write(sg_dma_address(&sg[i]), want[i], sizeof(want[i]));
	}
	dma_unmap_sg(sg, 3, DMA_FROM_DEVICE);
	for (int i = 0; i < 3; i++)
		assert_memory_equal(va[i] + 40 * i, want[i], sizeof(want[i]));
	assert_int_equal(dma_mappings_live(), 0);
	kunmap(pg[2]);
	kunmap_local(va[1]);
}

/* Out of mapping records: an error, and a scatterlist leaves nothing mapped. */
static void dma_mapping_error_when_full(void **state)
{
	struct page *p = host_alloc(ZONE_LOWMEM);
	struct scatterlist sg[2];
	dma_addr_t a[DMA_MAX_MAPPINGS];

	begin(state);
	for (int i = 0; i < DMA_MAX_MAPPINGS - 1; i++)
		assert_false(dma_mapping_error(a[i] = dma_map_page(p, 0, 64, DMA_TO_DEVICE)));
	sg_init_table(sg, 2);
	sg_set_page(&sg[0], p, 64, 0);
	sg_set_page(&sg[1], p, 64, 64);
	assert_int_equal(dma_map_sg(sg, 2, DMA_TO_DEVICE), 0);
	assert_int_equal(dma_mappings_live(), DMA_MAX_MAPPINGS - 1);
	a[DMA_MAX_MAPPINGS - 1] = dma_map_page(p, 0, 64, DMA_TO_DEVICE);
	assert_false(dma_mapping_error(a[DMA_MAX_MAPPINGS - 1]));
	assert_true(dma_mapping_error(dma_map_page(p, 0, 64, DMA_TO_DEVICE)));
	for (int i = 0; i < DMA_MAX_MAPPINGS; i++)
		dma_unmap_page(a[i], 64, DMA_TO_DEVICE);
	assert_int_equal(dma_mappings_live(), 0);
}

/* ---- another thread's map of the page, left in its slot (deferred scheme) ---- */

#if !CONFIG_DEBUG_HIGHMEM
static struct page *shared;
static struct semaphore holder_go;
static uint8_t holder_data[PAGE_SIZE];

/* Maps the page, writes it (or only reads it), and is preempted holding the map. */
static void holder(void *arg)
{
	uint8_t *va = kmap_local_page(shared);

	touch(va);
	if (arg)
		memcpy(va, holder_data, PAGE_SIZE);
	down(&holder_go);
	if (!arg)
		HOST_EXPECT(memcmp(va, holder_data, PAGE_SIZE) == 0);   /* what the device wrote */
	kunmap_local(va);
}

static void dma_to_device_page_in_deferred_slot(void **state)
{
	struct thread *t;
	dma_addr_t a;

	begin(state);
	shared = host_alloc(ZONE_HIGHMEM);
	fill(holder_data, PAGE_SIZE, 11);
	sema_init(&holder_go, 0);
	t = host_spawn("holder", holder, (void *)1, HOST_PRIO_MAIN + 1);
	a = dma_map_page(shared, 0, PAGE_SIZE, DMA_TO_DEVICE);
	device_reads(a, holder_data, PAGE_SIZE);
	dma_unmap_page(a, PAGE_SIZE, DMA_TO_DEVICE);
	up(&holder_go);
	thread_join(t);
}

static void dma_from_device_page_in_deferred_slot(void **state)
{
	struct thread *t;
	dma_addr_t a;

	begin(state);
	shared = host_alloc(ZONE_HIGHMEM);
	sema_init(&holder_go, 0);
	t = host_spawn("holder", holder, NULL, HOST_PRIO_MAIN + 1);
	a = dma_map_page(shared, 0, PAGE_SIZE, DMA_FROM_DEVICE);
	fill(holder_data, PAGE_SIZE, 12);
	sim_dma_write(a, holder_data, PAGE_SIZE);
	dma_unmap_page(a, PAGE_SIZE, DMA_FROM_DEVICE);
	up(&holder_go);                         /* the holder reads the page: the device's data */
	thread_join(t);
}
#endif

/* ---- misuse: a diagnostic naming the thread and the page ---- */

static struct page *bad_page;
static char want_pfn[32];

static void map_zero(void *arg)
{
	(void)arg;
	dma_map_page(bad_page, 0, 0, DMA_TO_DEVICE);
}

static void dma_misuse_zero_length(void **state)
{
	begin(state);
	bad_page = host_alloc(ZONE_LOWMEM);
	host_hex(want_pfn, sizeof(want_pfn), "pfn 0x%lx", page_to_pfn(bad_page));
	EXPECT_PANIC(map_zero, NULL, "dma_map_page(", want_pfn, "thread 'main'", "zero length");
}

static void map_past_end(void *arg)
{
	(void)arg;
	dma_map_page(bad_page, 8, 2 * PAGE_SIZE, DMA_FROM_DEVICE);
}

static void dma_misuse_past_end_of_ram(void **state)
{
	begin(state);
	bad_page = pfn_to_page(ARCH_PFN_OFFSET + NR_PAGES - 1);
	host_hex(want_pfn, sizeof(want_pfn), "pfn 0x%lx", page_to_pfn(bad_page));
	EXPECT_PANIC(map_past_end, NULL, "dma_map_page(", want_pfn, "thread 'main'",
		     "past the end of RAM");
}

static void unmap_never(void *arg)
{
	(void)arg;
	dma_unmap_page((dma_addr_t)pa_of(bad_page) + 64, 128, DMA_TO_DEVICE);
}

static void dma_misuse_unmap_never_mapped(void **state)
{
	begin(state);
	bad_page = host_alloc(ZONE_HIGHMEM);
	host_hex(want_pfn, sizeof(want_pfn), "pfn 0x%lx", page_to_pfn(bad_page));
	EXPECT_PANIC(unmap_never, NULL, "dma_unmap_page(", want_pfn, "thread 'main'",
		     "never mapped, or already unmapped");
}

static void dma_misuse_double_unmap(void **state)
{
	dma_addr_t a;

	begin(state);
	bad_page = host_alloc(ZONE_HIGHMEM);
	host_hex(want_pfn, sizeof(want_pfn), "pfn 0x%lx", page_to_pfn(bad_page));
	a = dma_map_page(bad_page, 64, 128, DMA_TO_DEVICE);
	dma_unmap_page(a, 128, DMA_TO_DEVICE);
	EXPECT_PANIC(unmap_never, NULL, "dma_unmap_page(", want_pfn, "thread 'main'",
		     "never mapped, or already unmapped");
}

static void unmap_wrong_dir(void *arg)
{
	dma_unmap_page(*(dma_addr_t *)arg, 128, DMA_FROM_DEVICE);
}

static void dma_misuse_unmap_other_direction(void **state)
{
	dma_addr_t a;

	begin(state);
	bad_page = host_alloc(ZONE_LOWMEM);
	a = dma_map_page(bad_page, 0, 128, DMA_TO_DEVICE);
	EXPECT_PANIC(unmap_wrong_dir, &a, "dma_unmap_page(", "thread 'main'",
		     "DMA_FROM_DEVICE", "the mapping there", "DMA_TO_DEVICE (by thread 'main')");
	dma_unmap_page(a, 128, DMA_TO_DEVICE);
}

#if CONFIG_DEBUG_HIGHMEM
static struct semaphore holder_go;

static void live_holder(void *arg)
{
	char *va = kmap_local_page(bad_page);

	(void)arg;
	down(&holder_go);
	kunmap_local(va);
}

static void map_held(void *arg)
{
	(void)arg;
	dma_map_page(bad_page, 0, 64, DMA_TO_DEVICE);
}

static void dma_misuse_page_in_another_threads_local_map(void **state)
{
	struct thread *t;

	begin(state);
	bad_page = host_alloc(ZONE_HIGHMEM);
	host_hex(want_pfn, sizeof(want_pfn), "pfn 0x%lx", page_to_pfn(bad_page));
	sema_init(&holder_go, 0);
	t = host_spawn("holder", live_holder, NULL, HOST_PRIO_MAIN + 1);
	EXPECT_PANIC(map_held, NULL, "dma_map_page(", want_pfn, "thread 'main'",
		     "thread 'holder' holds the page in a live local kmap");
	assert_int_equal(dma_mappings_live(), 0);
	up(&holder_go);
	thread_join(t);
}

static void cpu_maps_dma_page(void *arg)
{
	(void)arg;
	(void)kmap_local_page(bad_page);
}

static void dma_misuse_cpu_access_during_from_device(void **state)
{
	dma_addr_t a;

	begin(state);
	bad_page = host_alloc(ZONE_HIGHMEM);
	host_hex(want_pfn, sizeof(want_pfn), "pfn 0x%lx", page_to_pfn(bad_page));
	a = dma_map_page(bad_page, 0, PAGE_SIZE, DMA_FROM_DEVICE);
	EXPECT_PANIC(cpu_maps_dma_page, NULL, "kmap_local_page(", want_pfn, "thread 'main'",
		     "mapped for DMA from the device", "DMA_FROM_DEVICE by thread 'main'");
	dma_unmap_page(a, PAGE_SIZE, DMA_FROM_DEVICE);
	/* Afterwards the CPU may map it again; a buffer the device only reads, always. */
	a = dma_map_page(bad_page, 0, PAGE_SIZE, DMA_TO_DEVICE);
	kunmap_local(kmap_local_page(bad_page));
	dma_unmap_page(a, PAGE_SIZE, DMA_TO_DEVICE);
}
#endif

/*
 * lokal/dma-memcpy.h on the host model's engine (arch/sim/dma_memcpy.c,
 * mapping both lists as the PL080 driver does): the source's dirty lines
 * reach the device, and the destination, cached before under a local map
 * that may still be left in its slot, reads as the device wrote it.
 */
static void dma_memcpy_through_the_board_engine(void **state)
{
	struct page *src = host_alloc(ZONE_LOWMEM), *dst = host_alloc(ZONE_HIGHMEM);
	static uint8_t want[PAGE_SIZE];
	struct scatterlist s, d;
	uint8_t *p;

	begin(state);
	assert_non_null(dma_memcpy_engine());
	fill(want, PAGE_SIZE, 3);
	memcpy(page_address(src), want, PAGE_SIZE);     /* dirty in the D-cache */
	p = kmap_local_page(dst);
	touch(p);
	kunmap_local(p);
	sg_init_table(&s, 1);
	sg_init_table(&d, 1);
	sg_set_page(&s, src, PAGE_SIZE, 0);
	sg_set_page(&d, dst, PAGE_SIZE, 0);
	assert_int_equal(dma_memcpy_sg(&d, 1, &s, 1, 10), 0);
	p = kmap_local_page(dst);
	assert_memory_equal(p, want, PAGE_SIZE);
	kunmap_local(p);
	assert_int_equal(sim_violations(SIM_NR_VIOLATIONS), 0);
	assert_int_equal(dma_mappings_live(), 0);
	/* Unequal totals: refused, nothing left mapped. */
	sg_set_page(&d, dst, 64, 0);
	assert_int_equal(dma_memcpy_sg(&d, 1, &s, 1, 10), -EINVAL);
	assert_int_equal(dma_mappings_live(), 0);
}

/* The engine's counts move by exactly the copies made: what the demo prints. */
static void dma_memcpy_stats_count_each_copy(void **state)
{
	struct page *src = host_alloc(ZONE_LOWMEM), *dst = host_alloc(ZONE_HIGHMEM);
	struct dma_memcpy_stats before, after;
	struct scatterlist s, d;

	begin(state);
	sg_init_table(&s, 1);
	sg_init_table(&d, 1);
	sg_set_page(&s, src, PAGE_SIZE, 0);
	sg_set_page(&d, dst, PAGE_SIZE, 0);
	assert_int_equal(dma_memcpy_sg(&d, 1, &s, 1, 10), 0);   /* the engine set up */
	assert_int_equal(dma_memcpy_get_stats(&before), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(dma_memcpy_sg(&d, 1, &s, 1, 10), 0);
	sg_set_page(&d, dst, 64, 0);
	assert_int_equal(dma_memcpy_sg(&d, 1, &s, 1, 10), -EINVAL);  /* never reached it */
	assert_int_equal(dma_memcpy_get_stats(&after), 0);
	assert_int_equal(after.transfers - before.transfers, 3);
	assert_int_equal(after.completion_irqs - before.completion_irqs, 3);
	assert_int_equal(after.error_irqs - before.error_irqs, 0);
}

/*
 * lokal/console-dma.h on the host model's engine: a line written through
 * a local map of a highmem page (dirty in the D-cache, the map still up)
 * reaches the device whole; bad arguments are refused before any mapping.
 */
static void console_dma_sends_a_dirty_highmem_line(void **state)
{
	static const char line[] = "console: sent from highmem by DMA\n";
	struct page *pg = host_alloc(ZONE_HIGHMEM);
	char got[sizeof(line)];
	char *p;

	begin(state);
	assert_non_null(console_dma_engine());
	sim_console_dma_take(got, 0);
	p = kmap_local_page(pg);
	memcpy(p + 100, line, sizeof(line) - 1);
	assert_int_equal(console_dma_write(pg, 100, sizeof(line) - 1, 10), 0);
	kunmap_local(p);
	assert_int_equal(sim_console_dma_take(got, sizeof(got)), sizeof(line) - 1);
	assert_memory_equal(got, line, sizeof(line) - 1);
	assert_int_equal(sim_violations(SIM_NR_VIOLATIONS), 0);
	assert_int_equal(console_dma_write(pg, 100, 0, 10), -EINVAL);
	assert_int_equal(console_dma_write(pg, PAGE_SIZE - 1, 2, 10), -EINVAL);
	assert_int_equal(console_dma_write(pg, 0, 1, -1), -EINVAL);
	assert_int_equal(dma_mappings_live(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(model_device_read_of_dirty_line),
		HOST_TEST(model_cpu_read_of_line_older_than_device_write),
		HOST_TEST(model_write_back_over_device_write),
		HOST_TEST(dma_to_device_lowmem),
		HOST_TEST(dma_to_device_highmem_own_map),
		HOST_TEST(dma_to_device_highmem_pkmap),
		HOST_TEST(dma_to_device_two_pages),
		HOST_TEST(dma_from_device_lowmem_evict_during_transfer),
		HOST_TEST(dma_from_device_highmem_evict_during_transfer),
		HOST_TEST(dma_misaligned_from_device_is_reported),
		HOST_TEST(dma_from_device_lowmem_partial_lines_cpu_read_during),
		HOST_TEST(dma_from_device_highmem_partial_lines_cpu_read_during),
		HOST_TEST(dma_from_device_pkmap_partial_lines_cpu_read_during),
		HOST_TEST(dma_bidirectional),
		HOST_TEST(dma_sync_for_cpu_then_device),
		HOST_TEST(dma_sg_lowmem_highmem_pkmap),
		HOST_TEST(dma_mapping_error_when_full),
		HOST_TEST(dma_memcpy_through_the_board_engine),
		HOST_TEST(dma_memcpy_stats_count_each_copy),
		HOST_TEST(console_dma_sends_a_dirty_highmem_line),
#if !CONFIG_DEBUG_HIGHMEM
		HOST_TEST(dma_to_device_page_in_deferred_slot),
		HOST_TEST(dma_from_device_page_in_deferred_slot),
#endif
		HOST_TEST(dma_misuse_zero_length),
		HOST_TEST(dma_misuse_past_end_of_ram),
		HOST_TEST(dma_misuse_unmap_never_mapped),
		HOST_TEST(dma_misuse_double_unmap),
		HOST_TEST(dma_misuse_unmap_other_direction),
#if CONFIG_DEBUG_HIGHMEM
		HOST_TEST(dma_misuse_page_in_another_threads_local_map),
		HOST_TEST(dma_misuse_cpu_access_during_from_device),
#endif
	};

	return host_run_groups("dma", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
