/*
 * libFuzzer target: random sequences of local maps, kmap()s, writes, reads,
 * context switches and pool flushes, run by the real mm code and the real
 * scheduler (worker threads handing the CPU to each other through
 * semaphores) against the cache model. Any model violation, any data
 * mismatch, and any panic is a crash. The generator only produces legal API
 * use (stack order, no more than 16 nested maps, at most one fixmap alias
 * of a page per thread, no kmap() of a page some thread holds in a fixmap
 * slot) so that what remains to be caught is the kernel's fault, not the
 * caller's. Threads share pages where that is legal: two threads may hold
 * the same page, in the same slot or not, and a page moves from one
 * thread to another (the deferred scheme keeps the PTE for the next user).
 * tests/host/fuzz/seeds holds hand-made inputs for those cases (ops are
 * 4 bytes each: op, a, b, c; see run_ops()).
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <lokal/highmem.h>
#include <lokal/mm.h>
#include <lokal/sched-internal.h>
#include <asm/cacheflush.h>
#include <asm/sim.h>
#include "host_sched.h"

#define NPAGES          12              /* pages 0..9 highmem, 10..11 lowmem */
#define NTHREADS        3
#define MAX_DEPTH       16
#define MAX_HELD        12              /* below LAST_PKMAP: kmap() never sleeps */
#define PRIO_WORKER     10

_Static_assert(MAX_HELD < LAST_PKMAP, "the fuzzer keeps kmap() from sleeping");

struct local_map {
	int page;
	char *va;
	bool fixmap;                    /* got a fixmap slot (not the pkmap fallback) */
};

static struct page *pages[NPAGES];
static uint8_t shadow[NPAGES][PAGE_SIZE];
static int fix_maps[NTHREADS][NPAGES];  /* live fixmap aliases per thread and page */
static struct local_map stack[NTHREADS][MAX_DEPTH];
static int depth[NTHREADS];
static int held[MAX_HELD];              /* pages kmap()ed, by index */
static int nheld;
static int cur;

/* The input being run, and the workers that run it. */
static const uint8_t *in_data;
static size_t in_size, in_pos;
static bool unwinding;
static struct semaphore run[NTHREADS];

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

static void map_local(int pg, bool by_pfn)
{
	struct local_map *m;
	bool has_pkmap = PageHighMem(pages[pg]) && page_address(pages[pg]);

	if (depth[cur] == MAX_DEPTH)
		return;
	/* A thread's second fixmap alias, or a pfn map beside a pkmap alias, is the caller's bug. */
	if (fix_maps[cur][pg] && !has_pkmap)
		return;
	if (by_pfn && (has_pkmap || fix_maps[cur][pg]))
		return;
	m = &stack[cur][depth[cur]++];
	m->page = pg;
	m->va = by_pfn ? kmap_local_pfn(page_to_pfn(pages[pg])) : kmap_local_page(pages[pg]);
	m->fixmap = (unsigned long)m->va >= FIXADDR_START && (unsigned long)m->va < FIXADDR_TOP + PAGE_SIZE;
	fix_maps[cur][pg] += m->fixmap;
}

static void unmap_local(void)
{
	struct local_map *m;

	if (!depth[cur])
		return;
	m = &stack[cur][--depth[cur]];
	kunmap_local(m->va);
	fix_maps[cur][m->page] -= m->fixmap;
}

static bool in_some_fixmap_slot(int pg)
{
	for (int t = 0; t < NTHREADS; t++)
		if (fix_maps[t][pg])
			return true;
	return false;
}

static void do_kmap(int pg)
{
	/* A pkmap alias beside a fixmap alias, even a switched-out one, is incoherent. */
	if (nheld == MAX_HELD || in_some_fixmap_slot(pg))
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

/* Run ops from the input until one hands the CPU to another thread; that thread, or -1 at the end. */
static int run_ops(void)
{
	while (in_pos + 3 < in_size) {
		const uint8_t *d = in_data + in_pos;
		uint8_t op = d[0], a = d[1], b = d[2], c = d[3];
		unsigned int off = (unsigned int)a * 16, len = (unsigned int)b % 64 + 1;
		int pg = 0;
		char *va;

		in_pos += 4;
		if (off + len > PAGE_SIZE)
			len = PAGE_SIZE - off;
		switch (op % 10) {
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
		case 7:
			check_model();
			return a % NTHREADS;
		case 8: kmap_flush_unused(); break;
		case 9:
			/* Read a whole page (read-allocate: its lines are cached, later stores hit). */
			va = pick(c, &pg);
			if (va && memcmp(va, shadow[pg], PAGE_SIZE))
				die("page read back differs", pg);
			break;
		}
		check_model();
	}
	return -1;
}

/* A worker runs while it holds run[me]; it hands the CPU on by posting another's. */
static void worker(void *arg)
{
	int me = (int)(intptr_t)arg, next;

	for (;;) {
		down(&run[me]);
		cur = me;
		if (unwinding) {
			/* Each thread unmaps its own maps; the last one drops the kmap()s. */
			while (depth[me])
				unmap_local();
			if (me + 1 < NTHREADS) {
				up(&run[me + 1]);
				continue;
			}
			while (nheld)
				do_kunmap(0);
			kmap_flush_unused();
			check_model();
			continue;               /* all block: the fuzzer's thread runs again */
		}
		next = run_ops();
		if (next < 0) {
			unwinding = true;
			next = 0;
		}
		up(&run[next]);
	}
}

static void reset(void)
{
	sim_reset();
	sim_verbose = false;
	mm_init(0x00100000u);
	memset(shadow, 0, sizeof(shadow));
	memset(fix_maps, 0, sizeof(fix_maps));
	memset(depth, 0, sizeof(depth));
	nheld = 0;
	for (int i = 0; i < NPAGES; i++)
		pages[i] = alloc_page(i < 10 ? ZONE_HIGHMEM : ZONE_LOWMEM);
}

/* The fuzzer's own thread becomes the scheduler's idle thread once, with the workers above it. */
static void start_workers(void)
{
	sim_reset();
	mm_init(0x00100000u);
	sched_init();
	for (int t = 0; t < NTHREADS; t++) {
		char name[8];

		sema_init(&run[t], 0);
		snprintf(name, sizeof(name), "f%d", t);
		host_spawn(name, worker, (void *)(intptr_t)t, PRIO_WORKER);
	}
	sched_begin();          /* the workers block at once; back here */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool started;

	if (!started) {
		/* mm_init() prints a summary per run: keep libFuzzer's output readable. */
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0)
			dup2(null, STDOUT_FILENO);
		start_workers();
		started = true;
	}
	reset();
	in_data = data;
	in_size = size;
	in_pos = 0;
	unwinding = false;
	up(&run[0]);            /* thread f0 starts; when every worker blocks, we are back */
	if (!unwinding || depth[0] || depth[1] || depth[2] || nheld)
		die("the workers did not finish the input", -1);
	/* Highmem is in RAM now; lowmem may still sit in the cache: compare through it. */
	for (int p = 0; p < NPAGES; p++) {
		const uint8_t *now = PageHighMem(pages[p]) ?
			sim_phys((phys_addr_t)page_to_pfn(pages[p]) << PAGE_SHIFT) :
			(const uint8_t *)page_address(pages[p]);

		if (memcmp(now, shadow[p], PAGE_SIZE))
			die("memory differs after unwinding", p);
	}
	check_model();
	return 0;
}
