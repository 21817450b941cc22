/*
 * libFuzzer target: random sequences of local maps, kmap()s, writes, reads,
 * context switches and pool flushes, run by the real mm code against the
 * cache model. Any model violation, any data mismatch, and any panic is a
 * crash. The generator only produces legal API use (stack order, no more
 * than 16 nested maps, at most one live alias per page) so that what
 * remains to be caught is the kernel's fault, not the caller's.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lokal/highmem.h>
#include <asm/sim.h>
#include "host_sched.h"

#define NPAGES          12              /* pages 0..9 highmem, 10..11 lowmem */
#define NTHREADS        3
#define MAX_DEPTH       16
#define MAX_HELD        12              /* below LAST_PKMAP: kmap() never sleeps */

_Static_assert(MAX_HELD < LAST_PKMAP, "the fuzzer has no thread to release a pkmap slot");

struct local_map {
	int page;
	char *va;
	bool fixmap;                    /* got a fixmap slot (not the pkmap fallback) */
};

static struct page *pages[NPAGES];
static uint8_t shadow[NPAGES][PAGE_SIZE];
static int fix_maps[NPAGES];            /* live fixmap aliases per page */
static struct thread threads[NTHREADS];
static struct local_map stack[NTHREADS][MAX_DEPTH];
static int depth[NTHREADS];
static int held[MAX_HELD];              /* pages kmap()ed, by index */
static int nheld;
static int cur;

static void die(const char *what, int page)
{
	fprintf(stderr, "fuzz_kmap: %s (page %d, thread %d)\nmodel: %s\n", what, page, cur,
		sim_last_violation());
	abort();
}

static void check_model(void)
{
	if (sim_violations(SIM_NR_VIOLATIONS))
		die("model violation", -1);
}

static void switch_to(int t)
{
	if (t == cur)
		return;
	host_switch_to(&threads[t]);
	cur = t;
}

static void map_local(int pg, bool by_pfn)
{
	struct local_map *m;
	bool has_pkmap = PageHighMem(pages[pg]) && page_address(pages[pg]);

	if (depth[cur] == MAX_DEPTH)
		return;
	/* A second fixmap alias, or a pfn map beside a pkmap alias, is the caller's bug. */
	if (fix_maps[pg] && !has_pkmap)
		return;
	if (by_pfn && (has_pkmap || fix_maps[pg]))
		return;
	m = &stack[cur][depth[cur]++];
	m->page = pg;
	m->va = by_pfn ? kmap_local_pfn(page_to_pfn(pages[pg])) : kmap_local_page(pages[pg]);
	m->fixmap = (unsigned long)m->va >= FIXADDR_START && (unsigned long)m->va < FIXADDR_TOP + PAGE_SIZE;
	fix_maps[pg] += m->fixmap;
}

static void unmap_local(void)
{
	struct local_map *m;

	if (!depth[cur])
		return;
	m = &stack[cur][--depth[cur]];
	kunmap_local(m->va);
	fix_maps[m->page] -= m->fixmap;
}

static void do_kmap(int pg)
{
	if (nheld == MAX_HELD || fix_maps[pg])
		return;
	kmap(pages[pg]);
	held[nheld++] = pg;
}

static void do_kunmap(unsigned int which)
{
	if (!nheld)
		return;
	which %= (unsigned int)nheld;
	kunmap(pages[held[which]]);
	held[which] = held[--nheld];
}

/* Pick a mapping the current thread may use: one of its local maps or a held kmap. */
static char *pick(unsigned int sel, int *pg)
{
	unsigned int n = (unsigned int)(depth[cur] + nheld);

	if (!n)
		return NULL;
	sel %= n;
	if (sel < (unsigned int)depth[cur]) {
		*pg = stack[cur][sel].page;
		return stack[cur][sel].va;
	}
	*pg = held[sel - depth[cur]];
	return page_address(pages[*pg]);
}

static void reset(void)
{
	host_sched_reset();
	sim_reset();
	sim_verbose = false;
	mm_init(0x00100000u);
	memset(shadow, 0, sizeof(shadow));
	memset(fix_maps, 0, sizeof(fix_maps));
	memset(depth, 0, sizeof(depth));
	nheld = 0;
	for (int i = 0; i < NPAGES; i++) {
		pages[i] = alloc_page(i < 10 ? ZONE_HIGHMEM : ZONE_LOWMEM);
		if (i >= 10)
			memset(page_address(pages[i]), 0, PAGE_SIZE);
	}
	for (int t = 0; t < NTHREADS; t++) {
		char name[8];

		snprintf(name, sizeof(name), "f%d", t);
		host_thread_init(&threads[t], name);
	}
	current = &threads[0];
	cur = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool quiet;
	size_t i;

	if (!quiet) {
		/* mm_init() prints a summary per run: keep libFuzzer's output readable. */
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		quiet = true;
	}
	reset();
	for (i = 0; i + 3 < size; i += 4) {
		uint8_t op = data[i], a = data[i + 1], b = data[i + 2], c = data[i + 3];
		unsigned int off = (unsigned int)a * 16, len = (unsigned int)b % 64 + 1;
		int pg = 0;
		char *va;

		if (off + len > PAGE_SIZE)
			len = PAGE_SIZE - off;
		switch (op % 9) {
		case 0: map_local(a % NPAGES, false); break;
		case 1: map_local(a % 10, true); break;
		case 2: unmap_local(); break;
		case 3: do_kmap(a % 10); break;
		case 4: do_kunmap(a); break;
		case 5:
			va = pick(c, &pg);
			if (va) {
				memset(va + off, b, len);
				memset(shadow[pg] + off, b, len);
			}
			break;
		case 6:
			va = pick(c, &pg);
			if (va && memcmp(va + off, shadow[pg] + off, len))
				die("read back differs", pg);
			break;
		case 7: switch_to(a % NTHREADS); break;
		case 8: kmap_flush_unused(); break;
		}
		check_model();
	}
	/* Unwind everything, then RAM itself must hold what was written. */
	for (int t = 0; t < NTHREADS; t++) {
		switch_to(t);
		while (depth[t])
			unmap_local();
	}
	while (nheld)
		do_kunmap(0);
	kmap_flush_unused();
	check_model();
	for (int p = 0; p < NPAGES; p++)
		if (memcmp(sim_phys((phys_addr_t)page_to_pfn(pages[p]) << PAGE_SHIFT), shadow[p], PAGE_SIZE))
			die("RAM differs after unwinding", p);
	return 0;
}
