/*
 * The oracle's memory: a version stamp per RAM word for the newest write
 * (the shadow: what a machine without caches would hold) and for physical
 * memory, the PC of each word's newest write, and report delivery with a
 * cap on repeats.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include "memsys-int.h"

static void *lazy_zeroed(size_t bytes)
{
	/* Anonymous pages cost nothing until touched, so 256 MiB of RAM
	 * needs no start-up time. */
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	/* Fewer page faults when a run touches most of RAM; only a hint. */
	madvise(p, bytes, MADV_HUGEPAGE);
	return p;
}

int oracle_init(struct memsys *ms)
{
	ms->words = ms->cfg.ram_size / 4;
	ms->shadow = lazy_zeroed(ms->words * sizeof(uint64_t));
	ms->mem = lazy_zeroed(ms->words * sizeof(uint64_t));
	ms->writer = lazy_zeroed(ms->words * sizeof(uint32_t));
	ms->code_pages = lazy_zeroed(ms->words / 1024 / 8 + 4);
	ms->dma_words = lazy_zeroed(ms->words / 8 + 4);
	ms->code_epoch = 1;
	for (unsigned i = 0; i < CAP_SLOTS; i++)
		ms->cap[i].kind = MS_REPORT_KINDS + 1;
	if (!ms->shadow || !ms->mem || !ms->writer || !ms->code_pages || !ms->dma_words) {
		fprintf(stderr, "vivt-emu: memsys: cannot map version arrays for %u MiB of RAM\n",
			ms->cfg.ram_size >> 20);
		return -1;
	}
	return 0;
}

void oracle_free(struct memsys *ms)
{
	if (ms->shadow)
		munmap(ms->shadow, ms->words * sizeof(uint64_t));
	if (ms->mem)
		munmap(ms->mem, ms->words * sizeof(uint64_t));
	if (ms->writer)
		munmap(ms->writer, ms->words * sizeof(uint32_t));
	if (ms->code_pages)
		munmap(ms->code_pages, ms->words / 1024 / 8 + 4);
	if (ms->dma_words)
		munmap(ms->dma_words, ms->words / 8 + 4);
}

/* True when this site may still report: the first reports of each kind at
 * each PC always pass; a full table lets everything through. */
static bool cap_allows(struct memsys *ms, enum ms_report_kind kind, uint32_t pc)
{
	uint32_t h = (pc * 2654435761u + (uint32_t)kind * 40503u) >> 22;

	for (unsigned i = 0; i < CAP_SLOTS; i++) {
		struct cap_slot *s = &ms->cap[(h + i) % CAP_SLOTS];

		if (s->kind == MS_REPORT_KINDS + 1) {
			s->kind = (uint8_t)kind;
			s->pc = pc;
			s->count = 1;
			return true;
		}
		if (s->kind == kind && s->pc == pc)
			return ++s->count <= CAP_PER_SITE;
	}
	return true;
}

void oracle_report(struct memsys *ms, enum ms_report_kind kind, uint32_t va,
		   uint32_t pa, uint32_t pc, uint32_t writer_pa, const char *fmt, ...)
{
	struct ms_report r;
	va_list ap;

	ms->st.reports[kind]++;
	if (!cap_allows(ms, kind, pc)) {
		ms->suppressed++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(ms->detail, sizeof(ms->detail), fmt, ap);
	va_end(ap);
	r.kind = kind;
	r.va = va;
	r.pa = pa;
	r.pc = pc;
	r.detail = ms->detail;
	r.writer_pc = pa_in_ram(ms, writer_pa) ? ms->writer[word_index(ms, writer_pa)] : 0;
	if (ms->cfg.report)
		ms->cfg.report(ms->cfg.report_ctx, &r);
}

const char *ms_report_kind_name(enum ms_report_kind kind)
{
	return arm926_report_name((enum arm926_report)kind);
}

uint32_t ms_random(struct memsys *ms)
{
	/* xorshift32: deterministic per seed, never stuck at zero. */
	uint32_t x = ms->rng;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	ms->rng = x;
	return x;
}
