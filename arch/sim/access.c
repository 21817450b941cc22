/*
 * Accesses to a window that is closed (arch/sim/model.c): what the
 * ARM926EJ-S does on a TLB miss and on a cache miss.
 *
 * The ARM926 D-cache is read-allocate: a read miss fills the line, a write
 * miss goes to memory (through the write buffer) and allocates nothing.
 *   - A read fault fills every missing line of the page and opens it.
 *   - A write fault to a page whose lines are all cached and current opens
 *     it (every store hits). Otherwise the faulting instruction runs once,
 *     single-stepped (x86 trap flag), on a scratch page holding the cached
 *     lines' data where lines are cached and memory's data where they are
 *     not; afterwards the bytes it changed in uncached lines go to memory
 *     and the cached lines keep theirs. The string instructions memset and
 *     memcpy use (rep stos, rep movs) are instead emulated byte by byte
 *     through the model, which also makes their reads allocate line by line.
 * One inexactness: a single instruction that reads and then writes a missed
 * line (x86 read-modify-write) does not allocate it, where ARM code's load
 * would have. On hosts other than x86-64 a fault cannot tell a write from a
 * read, and every miss allocates (write-allocate).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include "model.h"

static void open_window(struct window *w)
{
	if (mprotect((void *)w->va, PAGE_SIZE, PROT_READ | PROT_WRITE) < 0) {
		perror("sim model: mprotect");
		abort();
	}
	for (unsigned int l = 0; l < LINES; l++)
		memcpy((uint8_t *)w->va + l * LINE, w->line[l]->data, LINE);
	w->open = true;
}

/* An uncached access: the window becomes a view of the physical page. */
static void open_uncached(struct window *w, phys_addr_t pa)
{
	for (unsigned int l = 0; l < LINES; l++)
		sim_check_alias_newer(w, pa + l * LINE);
	if (mmap((void *)w->va, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 sim_ram_fd, (off_t)pa) == MAP_FAILED) {
		perror("sim model: mmap");
		abort();
	}
	w->uncached = true;
	w->open = true;
}

/* Lines of w that would not hit (absent, or stale). */
static unsigned int count_stale(struct window *w, bool clear)
{
	unsigned int n = 0;

	for (unsigned int l = 0; l < LINES; l++)
		if (w->line[l] && w->line[l]->stale) {
			n++;
			if (clear)
				w->line[l]->stale = false;
		}
	return n;
}

static bool all_cached(const struct window *w)
{
	for (unsigned int l = 0; l < LINES; l++)
		if (!w->line[l])
			return false;
	return true;
}

static void read_fill(struct window *w, phys_addr_t pa)
{
	unsigned int stale;

	for (unsigned int l = 0; l < LINES; l++)
		if (!w->line[l])
			sim_fill_line(w, l, pa);
	for (unsigned int l = 0; l < LINES; l++)
		if (w->line[l]->stale && w->line[l]->dma) {
			sim_violation(SIM_DMA_STALE_READ, w, pa + l * LINE,
				      "invalidate of the buffer's lines at dma_unmap (or sync for CPU)",
				      "line %u hit, older than what a device wrote to memory", l);
			w->line[l]->stale = false;
		}
	stale = count_stale(w, true);
	if (stale)
		sim_violation(SIM_STALE_READ, w, pa,
			      "clean+invalidate of this alias before the other wrote",
			      "%u cached line(s) are older than what another alias wrote to memory",
			      stale);
	open_window(w);
}

#if defined(__x86_64__)

/* ---- byte accesses through the model (string-instruction emulation) ---- */

static phys_addr_t line_pa_of(struct window *w, unsigned long addr, bool write)
{
	return sim_translate(w, addr, write) + ((addr - w->va) & ~(unsigned long)(LINE - 1));
}

static uint8_t load_byte(unsigned long addr)
{
	struct window *w = sim_window_at(addr);
	struct cline *c;
	phys_addr_t lpa;
	unsigned int l;

	if (!w || w->open)
		return *(volatile uint8_t *)addr;
	lpa = line_pa_of(w, addr, false);
	if (!pte_cacheable(w->tlb_pte)) {
		sim_check_alias_newer(w, lpa);
		return sim_ram[lpa + addr % LINE];
	}
	l = (unsigned int)((addr - w->va) / LINE);
	c = w->line[l] ? w->line[l] : sim_fill_line(w, l, lpa - l * LINE);
	if (c->stale && c->dma) {
		sim_violation(SIM_DMA_STALE_READ, w, lpa,
			      "invalidate of the buffer's lines at dma_unmap (or sync for CPU)",
			      "line %u hit, older than what a device wrote to memory", l);
		c->stale = false;
	} else if (c->stale) {
		sim_violation(SIM_STALE_READ, w, lpa,
			      "clean+invalidate of this alias before the other wrote",
			      "line %u is older than what another alias wrote to memory", l);
		c->stale = false;
	}
	return sim_line_data(c)[addr % LINE];
}

static phys_addr_t last_missed_line;     /* counts write misses once per line */

static void store_byte(unsigned long addr, uint8_t v)
{
	struct window *w = sim_window_at(addr);
	struct cline *c;
	phys_addr_t lpa;

	if (!w || w->open) {
		*(volatile uint8_t *)addr = v;
		return;
	}
	lpa = line_pa_of(w, addr, true);
	c = pte_cacheable(w->tlb_pte) ? w->line[(addr - w->va) / LINE] : NULL;
	if (c) {
		sim_line_data(c)[addr % LINE] = v;      /* a hit */
		return;
	}
	/* A miss (or uncached): straight to memory, nothing allocated. */
	if (lpa != last_missed_line) {
		last_missed_line = lpa;
		sim_model_stats.write_misses++;
	}
	if (sim_ram[lpa + addr % LINE] != v) {
		sim_ram[lpa + addr % LINE] = v;
		sim_memory_updated(NULL, lpa);
	}
}

/* rep stos / rep movs (and their single forms), as memset and memcpy use them. */
static bool emulate_string(ucontext_t *uc)
{
	greg_t *g = uc->uc_mcontext.gregs;
	const uint8_t *ip = (const uint8_t *)g[REG_RIP];
	bool rep = false, rexw = false, opsize = false, movs;
	unsigned long count, size, i, k;
	unsigned int n;

	for (n = 0; n < 4; n++) {
		if (ip[n] == 0xf3)
			rep = true;
		else if (ip[n] == 0x66)
			opsize = true;
		else if ((ip[n] & 0xf0) == 0x40)
			rexw = (ip[n] & 8) != 0;
		else
			break;
	}
	if (ip[n] != 0xaa && ip[n] != 0xab && ip[n] != 0xa4 && ip[n] != 0xa5)
		return false;
	if (g[REG_EFL] & 0x400)
		return false;                   /* backwards (DF set): leave it to stepping */
	movs = ip[n] == 0xa4 || ip[n] == 0xa5;
	size = (ip[n] == 0xaa || ip[n] == 0xa4) ? 1 : rexw ? 8 : opsize ? 2 : 4;
	count = rep ? (unsigned long)g[REG_RCX] : 1;
	last_missed_line = (phys_addr_t)-1;
	for (i = 0; i < count; i++)
		for (k = 0; k < size; k++) {
			unsigned long off = i * size + k;
			uint8_t v = movs ? load_byte((unsigned long)g[REG_RSI] + off)
					 : (uint8_t)((unsigned long)g[REG_RAX] >> (8 * k));

			store_byte((unsigned long)g[REG_RDI] + off, v);
		}
	g[REG_RDI] += (greg_t)(count * size);
	if (movs)
		g[REG_RSI] += (greg_t)(count * size);
	if (rep)
		g[REG_RCX] = 0;
	g[REG_RIP] += n + 1;
	return true;
}

/* ---- single-stepping one store ---- */

#define MAX_STEPPING 4
#define TRAP_FLAG 0x100

static struct stepping {
	struct window *w;
	phys_addr_t pa;
	uint8_t mem[PAGE_SIZE];         /* memory's bytes put in the missed lines */
} stepping[MAX_STEPPING];
static unsigned int nstepping;

static void step_store(struct window *w, phys_addr_t pa, ucontext_t *uc)
{
	struct stepping *s;

	if (nstepping == MAX_STEPPING) {
		fprintf(stderr, "sim model: one instruction wrote %u windows\n", nstepping + 1);
		abort();
	}
	s = &stepping[nstepping++];
	s->w = w;
	s->pa = pa;
	if (mprotect((void *)w->va, PAGE_SIZE, PROT_READ | PROT_WRITE) < 0) {
		perror("sim model: mprotect");
		abort();
	}
	for (unsigned int l = 0; l < LINES; l++) {
		uint8_t *dst = (uint8_t *)w->va + l * LINE;

		if (w->line[l]) {
			memcpy(dst, w->line[l]->data, LINE);
		} else {
			memcpy(s->mem + l * LINE, sim_ram + pa + l * LINE, LINE);
			memcpy(dst, s->mem + l * LINE, LINE);
		}
	}
	w->open = true;
	w->stepping = true;
	uc->uc_mcontext.gregs[REG_EFL] |= TRAP_FLAG;
}

/* The stepped instruction is done: missed lines' new bytes go to memory. */
static void trap_handler(int sig, siginfo_t *si, void *ucv)
{
	ucontext_t *uc = ucv;

	(void)si;
	if (!nstepping) {
		signal(sig, SIG_DFL);
		return;
	}
	uc->uc_mcontext.gregs[REG_EFL] &= ~(greg_t)TRAP_FLAG;
	while (nstepping) {
		struct stepping *s = &stepping[--nstepping];
		struct window *w = s->w;

		for (unsigned int l = 0; l < LINES; l++) {
			const uint8_t *now = (const uint8_t *)w->va + l * LINE;
			uint8_t *mem = sim_ram + s->pa + l * LINE;
			bool changed = false;

			if (w->line[l])
				continue;
			for (unsigned int b = 0; b < LINE; b++)
				if (now[b] != s->mem[l * LINE + b]) {
					mem[b] = now[b];
					changed = true;
				}
			if (changed) {
				sim_model_stats.write_misses++;
				sim_memory_updated(NULL, s->pa + l * LINE);
			}
		}
		w->stepping = false;
		sim_close_window(w);
	}
}

void sim_install_trap_handler(void)
{
	static bool done;
	struct sigaction sa;

	if (done)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = trap_handler;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGTRAP, &sa, NULL) == 0)
		done = true;
}

static void write_fault(struct window *w, phys_addr_t pa, ucontext_t *uc)
{
	if (all_cached(w) && !count_stale(w, false)) {
		open_window(w);                 /* every store hits */
		return;
	}
	if (!emulate_string(uc))
		step_store(w, pa, uc);
}

#else

void sim_install_trap_handler(void)
{
}

static void write_fault(struct window *w, phys_addr_t pa, ucontext_t *uc)
{
	(void)uc;
	read_fill(w, pa);
}

#endif

void sim_access_fault(struct window *w, unsigned long addr, bool write, void *uc)
{
	phys_addr_t pa;

	sim_model_stats.faults++;
	sim_sync_ptes();
	pa = sim_translate(w, addr, write);
	if (!pte_cacheable(w->tlb_pte))
		open_uncached(w, pa);
	else if (write)
		write_fault(w, pa, uc);
	else
		read_fill(w, pa);
}
