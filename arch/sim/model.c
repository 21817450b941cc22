/*
 * A model of the ARM926EJ-S MMU, TLB and table walker around the D-cache
 * of cache.c, precise enough to catch every missing maintenance operation
 * of the kmap code.
 *
 * Granularity. Every pkmap slot, fixmap slot and direct-map (lowmem) page
 * is one host page (a "window"). A window is readable and writable only
 * while every access to it would hit: its TLB entry is valid and all 128 of
 * its 32-byte lines are in the cache and not stale. Then loads and stores
 * run at native speed on the host page, which *is* the cache's content for
 * that virtual address (virtually indexed, virtually tagged: a hit never
 * looks at the PTE). Otherwise the page is PROT_NONE and the access traps
 * into access.c, which does what the hardware would: walk the table if the
 * TLB has no entry (reading the *walker's* copy of the PTE), then for a
 * read fill the missing lines, for a write send missed lines to memory.
 *
 * Dirty lines are found by comparing a line with the copy taken when it
 * was filled or last cleaned; a line written with its old value is
 * harmless to lose, so this is exactly "data that would be lost".
 *
 * Tables. The CPU writes PTEs into its D-cache; the walker reads memory.
 * The model keeps, per table entry, the walker's copy, updated only when
 * the entry's line is cleaned (into the write buffer) and then drained.
 * The direct map is made of section entries that never change: its TLB
 * entries are always valid and cacheable.
 *
 * Simplifications (on the safe side): a read fill loads every missing line
 * of the page at once (hardware loads one line per miss); write-backs of
 * data lines reach memory at once (only PTE writes model the write buffer,
 * because the walker does not snoop it).
 *
 * Uncached mappings (PTE without the C bit, e.g. PAGE_KERNEL_NOCACHE) are
 * windows mapped straight onto the RAM memfd: every access reaches memory,
 * no line is ever valid. A store through such a window is not seen by the
 * model, so cached aliases are not marked stale by it.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <asm/cacheflush.h>
#include <asm/irqflags.h>
#include <asm/tlbflush.h>
#include "model.h"

#define PTES_PER_LINE   (LINE / sizeof(pte_t))

struct window *sim_windows;
struct sim_stats sim_model_stats;
static unsigned int violations[SIM_NR_VIOLATIONS];
static char last_violation[512];
bool sim_verbose = true;

const char *sim_violation_name(enum sim_violation kind)
{
	return arm926_report_name((enum arm926_report)kind);
}

unsigned int sim_violations(enum sim_violation kind)
{
	unsigned int n = 0;

	if (kind < SIM_NR_VIOLATIONS)
		return violations[kind];
	for (int k = 0; k < SIM_NR_VIOLATIONS; k++)
		n += violations[k];
	return n;
}

void sim_clear_violations(void)
{
	memset(violations, 0, sizeof(violations));
	last_violation[0] = '\0';
}

const char *sim_last_violation(void)
{
	return last_violation;
}

void sim_get_stats(struct sim_stats *st)
{
	*st = sim_model_stats;
}

void sim_violation(enum sim_violation kind, const struct window *w, phys_addr_t pa,
		   const char *missing, const char *fmt, ...)
{
	char detail[240];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	violations[kind]++;
	snprintf(last_violation, sizeof(last_violation),
		 "%s: %s %s %d, VA 0x%lx, PA 0x%08lx: %s; missing %s",
		 sim_violation_name(kind), w->kind, w->cpu_pte ? "slot" : "pfn", w->slot, w->va,
		 (unsigned long)pa, detail, missing);
	if (sim_verbose)
		fprintf(stderr, "MODEL VIOLATION: %s\n", last_violation);
}

int sim_window_of(unsigned long va)
{
	unsigned long pk_end = sim_pkmap_base + LAST_PKMAP * PAGE_SIZE;

	if (va >= sim_pkmap_base && va < pk_end)
		return (int)((va - sim_pkmap_base) >> PAGE_SHIFT);
	if (va >= sim_fixaddr_start && va < sim_fixaddr_top + PAGE_SIZE)
		return LAST_PKMAP + (int)__virt_to_fix(va);
	if (va >= sim_page_offset && va < sim_page_offset + LOWMEM_SIZE)
		return NR_KMAP_WINDOWS + (int)((va - sim_page_offset) >> PAGE_SHIFT);
	return -1;
}

struct window *sim_window_at(unsigned long va)
{
	int i = sim_windows ? sim_window_of(va) : -1;

	return i < 0 ? NULL : &sim_windows[i];
}

static void set_prot(struct window *w, int prot)
{
	if (mprotect((void *)w->va, PAGE_SIZE, prot) < 0) {
		perror("sim model: mprotect");
		abort();
	}
}

/* The next access must come through the model. */
void sim_close_window(struct window *w)
{
	if (!w->open)
		return;
	if (w->uncached) {
		/* Put an anonymous, inaccessible page back in place of the RAM view. */
		if (mmap((void *)w->va, PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			 -1, 0) == MAP_FAILED) {
			perror("sim model: mmap");
			abort();
		}
		w->uncached = false;
		w->open = false;
		return;
	}
	for (unsigned int l = 0; l < LINES; l++)
		if (w->line[l])
			memcpy(w->line[l]->data, (uint8_t *)w->va + l * LINE, LINE);
	w->open = false;
	set_prot(w, PROT_NONE);
}

/* ---- page-table writes ---------------------------------------------------- */

/*
 * A PTE store is a plain C store the model cannot see; it notices the new
 * value at the next model event (every path that stores a PTE calls a
 * maintenance operation right after). That is where a change is judged.
 */
static void pte_changed(struct window *w, pte_t old, pte_t new)
{
	phys_addr_t old_pa = (phys_addr_t)(pte_pfn(old) << PAGE_SHIFT);
	phys_addr_t new_pa = (phys_addr_t)(pte_pfn(new) << PAGE_SHIFT);
	unsigned int l, dirty = 0;

	for (l = 0; l < LINES; l++)
		dirty += w->line[l] && sim_line_dirty(w->line[l]);
	if (dirty)
		sim_violation(SIM_REMAP_DIRTY, w, old_pa, "clean+invalidate of the window "
			      "(__cpuc_flush_dcache_area, c7,c14,1) before the PTE change",
			      "PTE 0x%08x -> 0x%08x while %u dirty line(s) of the old page were cached",
			      (unsigned int)old, (unsigned int)new, dirty);
	if (pte_none(new))
		return;
	for (l = 0; l < LINES; l++)
		if (w->line[l] && w->line[l]->pa != new_pa + l * LINE) {
			sim_violation(SIM_STALE_LINES, w, new_pa, "invalidate of the window "
				      "(c7,c14,1 or c7,c6,1) before it maps another page",
				      "mapped while line %u still holds data of PA 0x%08lx",
				      l, (unsigned long)(w->line[l]->pa - l * LINE));
			break;
		}
}

void sim_sync_ptes(void)
{
	/* Test harnesses (cmocka) install their own SIGSEGV handler per test. */
	sim_install_fault_handler();
	for (unsigned int i = 0; i < NR_KMAP_WINDOWS; i++) {
		struct window *w = &sim_windows[i];
		pte_t now = *w->cpu_pte;

		if (now != w->seen_pte) {
			pte_changed(w, w->seen_pte, now);
			w->seen_pte = now;
			/* The next access must show whether the TLB still holds the old entry. */
			sim_close_window(w);
		}
	}
}

/* Table lines covered by [start, end): hand them to the write buffer (or memory). */
static void clean_table_range(pte_t *table, unsigned int n, uintptr_t start, uintptr_t end,
			      bool drain)
{
	uintptr_t tb = (uintptr_t)table, te = (uintptr_t)(table + n);
	unsigned int i;

	if (end <= tb || start >= te)
		return;
	start = start < tb ? tb : start & ~(uintptr_t)(LINE - 1);
	end = end > te ? te : end;
	for (i = (unsigned int)((start - tb) / sizeof(pte_t));
	     i < n && tb + i * sizeof(pte_t) < end; i++) {
		struct window *w = table == sim_pkmap_pt ? &sim_windows[i]
							 : &sim_windows[LAST_PKMAP + i];

		if (drain) {
			w->walker_pte = *w->cpu_pte;
			w->wb_pending = false;
		} else {
			w->wb_pte = *w->cpu_pte;
			w->wb_pending = true;
		}
	}
}

static void clean_tables(uintptr_t start, uintptr_t end, bool drain)
{
	clean_table_range(sim_pkmap_pt, LAST_PKMAP, start, end, drain);
	clean_table_range(sim_fixmap_pt, KM_MAX_IDX, start, end, drain);
}

static void drain_write_buffer(void)
{
	for (unsigned int i = 0; i < NR_KMAP_WINDOWS; i++)
		if (sim_windows[i].wb_pending) {
			sim_windows[i].walker_pte = sim_windows[i].wb_pte;
			sim_windows[i].wb_pending = false;
		}
}

phys_addr_t sim_translate(struct window *w, unsigned long addr, bool write)
{
	phys_addr_t pa;

	if (!w->tlb_valid) {
		pte_t cpu = *w->cpu_pte, walked = w->walker_pte;

		sim_model_stats.walks++;
		if (walked != cpu)
			sim_violation(SIM_UNCLEANED_PTE, w, (phys_addr_t)(pte_pfn(cpu) << PAGE_SHIFT),
				      w->wb_pending && w->wb_pte == cpu ?
				      "drain of the write buffer (c7,c10,4) after the PTE clean" :
				      "clean of the PTE's line (c7,c10,1) after the PTE write",
				      "walker saw PTE 0x%08x, the CPU wrote 0x%08x",
				      (unsigned int)walked, (unsigned int)cpu);
		if (pte_none(walked))
			sim_data_abort(addr, write);
		w->tlb_valid = true;
		w->tlb_pte = walked;
	} else if (w->cpu_pte && w->tlb_pte != *w->cpu_pte) {
		sim_violation(SIM_STALE_TLB, w, (phys_addr_t)(pte_pfn(w->tlb_pte) << PAGE_SHIFT),
			      "TLB invalidate (local_flush_tlb_kernel_page, c8,c7,1) after the PTE change",
			      "TLB still translates with PTE 0x%08x, the table holds 0x%08x",
			      (unsigned int)w->tlb_pte, (unsigned int)*w->cpu_pte);
	}
	pa = (phys_addr_t)(pte_pfn(w->tlb_pte) << PAGE_SHIFT);
	if (pa >= RAM_SIZE)
		sim_data_abort(addr, write);
	return pa;
}

/* ---- interrupt points ------------------------------------------------------ */

void (*sim_irq_at_tlb_flush)(unsigned long vaddr);
void (*sim_irq_at)(enum sim_irq_point where, unsigned long vaddr);
static bool in_irq_point;

/* An interrupt may arrive here (interrupts on, no hook already running). */
static void irq_point(enum sim_irq_point where, unsigned long vaddr)
{
	if (!sim_irq_at || sim_irqs_off || in_irq_point)
		return;
	in_irq_point = true;
	sim_irq_at(where, vaddr);
	in_irq_point = false;
}

void sim_irq_unmasked(void)
{
	irq_point(SIM_IRQ_AT_UNMASK, 0);
}

/* The kmap window whose PTE is *ptep, or NULL: by index, as sim_model_setup() laid them out. */
static struct window *kmap_window_of_pte(const pte_t *ptep)
{
	uintptr_t p = (uintptr_t)ptep, pk = (uintptr_t)sim_pkmap_pt, fx = (uintptr_t)sim_fixmap_pt;

	if (p >= pk && p < pk + LAST_PKMAP * sizeof(pte_t))
		return &sim_windows[(p - pk) / sizeof(pte_t)];
	if (p >= fx && p < fx + KM_MAX_IDX * sizeof(pte_t))
		return &sim_windows[LAST_PKMAP + (p - fx) / sizeof(pte_t)];
	return NULL;
}

void sim_irq_before_pte_write(pte_t *ptep)
{
	struct window *w = kmap_window_of_pte(ptep);

	if (w)
		irq_point(SIM_IRQ_BEFORE_PTE_WRITE, w->va);
}

/* ---- data lines by address ------------------------------------------------ */

static void for_lines(uintptr_t start, uintptr_t end, bool clean, bool inv, const char *op)
{
	uintptr_t a, mid = start + (end - start) / 2;

	for (a = start & ~(uintptr_t)(LINE - 1); a < end; a += LINE) {
		struct window *w = sim_window_at(a);
		struct cline *c;

		if (a == (mid & ~(uintptr_t)(LINE - 1)) && inv && end - start >= 2 * LINE)
			irq_point(SIM_IRQ_IN_FLUSH, start);
		if (!w)
			continue;
		c = w->line[(a - w->va) / LINE];
		if (!c)
			continue;
		if (clean)
			sim_clean_line(c);
		if (inv)
			sim_invalidate_line(c, op);
	}
}

/* ---- the primitives of asm/cacheflush.h and asm/tlbflush.h ---------------- */

void __cpuc_flush_dcache_area(void *addr, size_t size)
{
	uintptr_t s = (uintptr_t)addr, e = s + size;

	sim_sync_ptes();
	clean_tables(s, e, true);
	for_lines(s, e, true, true, "clean+invalidate");
	drain_write_buffer();
	/* Between this flush and whatever comes next (the PTE clear on unmap). */
	irq_point(SIM_IRQ_AFTER_FLUSH, s);
}

void cpu_dcache_clean_area(void *addr, size_t size)
{
	uintptr_t s = (uintptr_t)addr, e = s + size;

	sim_sync_ptes();
	clean_tables(s, e, false);
	for_lines(s, e, true, false, "clean");
}

void cpu_dcache_inv_area(void *addr, size_t size)
{
	uintptr_t s = (uintptr_t)addr;

	sim_sync_ptes();
	for_lines(s, s + size, false, true, "invalidate (c7,c6,1)");
}

void __cpuc_flush_kern_all(void)
{
	sim_sync_ptes();
	clean_tables(0, UINTPTR_MAX, true);
	for (unsigned int i = 0; i < sim_cache_lines(); i++) {
		struct cline *c = sim_cache_line(i);

		/* The loop is interruptible: lines a handler brings in behind it stay. */
		if (i == sim_cache_lines() / 2)
			irq_point(SIM_IRQ_IN_FLUSH, 0);
		if (c->w) {
			sim_clean_line(c);
			sim_invalidate_line(c, "flush all");
		}
	}
	drain_write_buffer();
}

void __cpuc_flush_icache_all(void)
{
	sim_sync_ptes();
}

void cpu_drain_write_buffer(void)
{
	sim_sync_ptes();
	drain_write_buffer();
}

void local_flush_tlb_kernel_page(unsigned long vaddr)
{
	struct window *w;

	sim_sync_ptes();
	w = sim_window_at(vaddr);
	if (w && w->cpu_pte) {
		w->tlb_valid = false;
		sim_close_window(w);
	}
	/* A test's "interrupt" arriving right after this maintenance step. */
	if (sim_irq_at_tlb_flush && !sim_irqs_off)
		sim_irq_at_tlb_flush(vaddr);
	irq_point(SIM_IRQ_AFTER_TLB_FLUSH, vaddr);
}

void local_flush_tlb_all(void)
{
	sim_sync_ptes();
	/* The direct map's section entries come back unchanged: keep them open. */
	for (unsigned int i = 0; i < NR_KMAP_WINDOWS; i++) {
		sim_windows[i].tlb_valid = false;
		sim_close_window(&sim_windows[i]);
	}
}

/* ---- faults ----------------------------------------------------------------- */

static struct sigaction chained;

static void segv_handler(int sig, siginfo_t *si, void *uc)
{
	unsigned long addr = (unsigned long)si->si_addr;
	struct window *w = sim_window_at(addr);
	bool write = false;

#if defined(__x86_64__)
	write = (((ucontext_t *)uc)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#endif
	if (w && !w->open) {
		sim_access_fault(w, addr, write, uc);
		return;
	}
	/* Not ours: hand it on (cmocka or ASan report it), or die plainly. */
	if (chained.sa_flags & SA_SIGINFO && chained.sa_sigaction) {
		chained.sa_sigaction(sig, si, uc);
		return;
	}
	if (chained.sa_handler != SIG_DFL && chained.sa_handler != SIG_IGN) {
		chained.sa_handler(sig);
		return;
	}
	signal(sig, SIG_DFL);
}

void sim_install_fault_handler(void)
{
	struct sigaction sa, old;

	sim_install_trap_handler();
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = segv_handler;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, NULL, &old) == 0 && (old.sa_flags & SA_SIGINFO) &&
	    old.sa_sigaction == segv_handler)
		return;
	if (sigaction(SIGSEGV, &sa, &old) == 0)
		chained = old;
}

/* ---- set-up ------------------------------------------------------------------ */

void sim_model_setup(void)
{
	sim_windows = calloc(NR_WINDOWS, sizeof(*sim_windows));
	if (!sim_windows)
		abort();
	for (unsigned int i = 0; i < NR_WINDOWS; i++) {
		struct window *w = &sim_windows[i];

		if (i < LAST_PKMAP) {
			w->va = sim_pkmap_base + i * PAGE_SIZE;
			w->kind = "pkmap";
			w->slot = (int)i;
			w->cpu_pte = &sim_pkmap_pt[i];
		} else if (i < NR_KMAP_WINDOWS) {
			w->slot = (int)(i - LAST_PKMAP);
			w->va = __fix_to_virt(FIX_KMAP_BEGIN + w->slot);
			w->kind = "fixmap";
			w->cpu_pte = &sim_fixmap_pt[w->slot];
		} else {
			w->slot = (int)(i - NR_KMAP_WINDOWS);
			w->va = sim_page_offset + (unsigned long)w->slot * PAGE_SIZE;
			w->kind = "direct map";
		}
	}
	sim_cache_setup();
}

void sim_model_reset(void)
{
	for (unsigned int i = 0; i < NR_WINDOWS; i++) {
		struct window *w = &sim_windows[i];

		sim_close_window(w);
		memset(w->line, 0, sizeof(w->line));
		w->walker_pte = w->wb_pte = w->seen_pte = w->tlb_pte = 0;
		w->wb_pending = w->tlb_valid = false;
		if (!w->cpu_pte) {
			/* A section of the direct map: always translated, cacheable. */
			w->tlb_valid = true;
			w->tlb_pte = pfn_pte((unsigned long)w->slot, PAGE_KERNEL);
		}
	}
	sim_cache_reset();
	sim_irq_at = NULL;
	memset(violations, 0, sizeof(violations));
	last_violation[0] = '\0';
	memset(&sim_model_stats, 0, sizeof(sim_model_stats));
}
