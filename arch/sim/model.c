/*
 * A model of the ARM926EJ-S D-cache, TLB and table walker, precise enough
 * to catch every missing maintenance operation of the kmap code.
 *
 * Granularity. Every pkmap and fixmap slot is one host page (a "window").
 * A window is readable and writable only while the model says an access
 * needs neither the TLB nor a line fill: its TLB entry is valid and all 128
 * of its 32-byte lines are valid. Otherwise it is PROT_NONE and the next
 * access traps into model_fault(), which does what the hardware would:
 * walk the table if the TLB has no entry (reading the *walker's* copy of
 * the PTE), then fill invalid lines from physical memory. While open,
 * loads and stores run at native speed on the host page, which *is* the
 * cache's content for that virtual address (virtually indexed, virtually
 * tagged: a hit never looks at the PTE).
 *
 * Dirty lines are found by comparing a line with the copy taken when it
 * was filled or last cleaned; a line written with its old value is
 * harmless to lose, so this is exactly "data that would be lost".
 *
 * Tables. The CPU writes PTEs into its D-cache; the walker reads memory.
 * The model keeps, per table entry, the walker's copy, updated only when
 * the entry's line is cleaned (into the write buffer) and then drained.
 *
 * Simplifications (documented, deliberately on the safe side): a fill
 * loads every invalid line of the page at once (hardware loads one line
 * per miss); evictions never happen, so only explicit maintenance moves
 * data; write-backs of window lines reach memory at once (only PTE writes
 * model the write buffer, because the walker does not snoop it).
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
#include <lokal/highmem-internal.h>
#include <asm/sim.h>
#include <asm/cacheflush.h>
#include <asm/irqflags.h>
#include <asm/tlbflush.h>

#define LINE            32u
#define LINES           (PAGE_SIZE / LINE)
#define PTES_PER_LINE   (LINE / sizeof(pte_t))
#define NR_WINDOWS      (LAST_PKMAP + KM_MAX_IDX)

struct window {
	unsigned long va;
	const char *kind;       /* "pkmap" or "fixmap" */
	int slot;
	pte_t *cpu_pte;         /* the entry as the CPU (and its D-cache) sees it */
	pte_t walker_pte;       /* the entry as memory holds it */
	pte_t wb_pte;           /* cleaned, waiting in the write buffer */
	bool wb_pending;
	pte_t seen_pte;         /* cpu_pte at the previous model event */

	bool tlb_valid;
	pte_t tlb_pte;

	bool open;              /* host page accessible: data lives there */
	bool uncached;          /* open onto RAM itself (PTE without the C bit) */
	bool valid[LINES];
	bool stale[LINES];      /* valid, but memory has newer data from an alias */
	phys_addr_t line_pa[LINES];     /* page the line was filled from */
	uint8_t data[PAGE_SIZE];        /* line data while closed */
	uint8_t clean[PAGE_SIZE];       /* line data as last filled or cleaned */
};

static struct window *windows;
static unsigned int violations[SIM_NR_VIOLATIONS];
static char last_violation[512];
static struct sim_stats stats;
bool sim_verbose = true;

static const char *const violation_names[SIM_NR_VIOLATIONS] = {
	[SIM_STALE_TLB] = "stale TLB entry used",
	[SIM_LOST_WRITE] = "lost write",
	[SIM_STALE_READ] = "stale read through an alias",
	[SIM_STALE_LINES] = "window reused without invalidation",
	[SIM_UNCLEANED_PTE] = "table walker read an uncleaned PTE",
};

const char *sim_violation_name(enum sim_violation kind)
{
	return kind < SIM_NR_VIOLATIONS ? violation_names[kind] : "?";
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
	*st = stats;
}

static void __attribute__((format(printf, 5, 6)))
violation(enum sim_violation kind, const struct window *w, phys_addr_t pa,
	  const char *missing, const char *fmt, ...)
{
	char detail[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	violations[kind]++;
	snprintf(last_violation, sizeof(last_violation),
		 "%s: %s slot %d, VA 0x%lx, PA 0x%08lx: %s; missing %s",
		 violation_names[kind], w->kind, w->slot, w->va, (unsigned long)pa,
		 detail, missing);
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
	return -1;
}

static struct window *window_at(unsigned long va)
{
	int i = sim_window_of(va);

	return i < 0 ? NULL : &windows[i];
}

static uint8_t *line_data(struct window *w, unsigned int l)
{
	return (w->open ? (uint8_t *)w->va : w->data) + l * LINE;
}

static bool line_dirty(struct window *w, unsigned int l)
{
	return w->valid[l] && memcmp(line_data(w, l), w->clean + l * LINE, LINE) != 0;
}

static void set_prot(struct window *w, int prot)
{
	if (mprotect((void *)w->va, PAGE_SIZE, prot) < 0) {
		perror("sim model: mprotect");
		abort();
	}
}

/* The next access must come through the model. */
static void close_window(struct window *w)
{
	if (!w->open)
		return;
	w->open = false;
	if (w->uncached) {
		/* Put an anonymous, inaccessible page back in place of the RAM view. */
		if (mmap((void *)w->va, PAGE_SIZE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
			 -1, 0) == MAP_FAILED) {
			perror("sim model: mmap");
			abort();
		}
		w->uncached = false;
		return;
	}
	memcpy(w->data, (void *)w->va, PAGE_SIZE);
	set_prot(w, PROT_NONE);
}

/* An uncached access: the window becomes a view of the physical page. */
static void open_uncached(struct window *w, phys_addr_t pa)
{
	if (mmap((void *)w->va, PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
		 sim_ram_fd, (off_t)pa) == MAP_FAILED) {
		perror("sim model: mmap");
		abort();
	}
	w->uncached = true;
	w->open = true;
}

static void open_window(struct window *w)
{
	if (w->open)
		return;
	set_prot(w, PROT_READ | PROT_WRITE);
	memcpy((void *)w->va, w->data, PAGE_SIZE);
	w->open = true;
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
		dirty += line_dirty(w, l);
	if (dirty)
		violation(SIM_LOST_WRITE, w, old_pa, "clean+invalidate of the window "
			  "(__cpuc_flush_dcache_area, c7,c14,1) before the PTE change",
			  "PTE 0x%08x -> 0x%08x while %u dirty line(s) of the old page were cached",
			  (unsigned int)old, (unsigned int)new, dirty);
	if (pte_none(new))
		return;
	for (l = 0; l < LINES; l++)
		if (w->valid[l] && w->line_pa[l] != new_pa) {
			violation(SIM_STALE_LINES, w, new_pa, "invalidate of the window "
				  "(c7,c14,1 or c7,c6,1) before it maps another page",
				  "mapped while line %u still holds data of PA 0x%08lx",
				  l, (unsigned long)w->line_pa[l]);
			break;
		}
}

static void sync_ptes(void)
{
	/* Test harnesses (cmocka) install their own SIGSEGV handler per test. */
	sim_install_fault_handler();
	for (unsigned int i = 0; i < NR_WINDOWS; i++) {
		struct window *w = &windows[i];
		pte_t now = *w->cpu_pte;

		if (now != w->seen_pte) {
			pte_changed(w, w->seen_pte, now);
			w->seen_pte = now;
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
		struct window *w = table == sim_pkmap_pt ? &windows[i] : &windows[LAST_PKMAP + i];

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
	for (unsigned int i = 0; i < NR_WINDOWS; i++)
		if (windows[i].wb_pending) {
			windows[i].walker_pte = windows[i].wb_pte;
			windows[i].wb_pending = false;
		}
}

/* ---- window lines --------------------------------------------------------- */

/* Memory got new data for (pa, line): other aliases' copies are now stale. */
static void memory_updated(struct window *src, phys_addr_t pa, unsigned int l)
{
	for (unsigned int i = 0; i < NR_WINDOWS; i++) {
		struct window *w = &windows[i];

		if (w == src || !w->valid[l] || w->line_pa[l] != pa)
			continue;
		if (memcmp(line_data(w, l), sim_ram + pa + l * LINE, LINE) != 0) {
			w->stale[l] = true;
			close_window(w);
		}
	}
}

static void clean_line(struct window *w, unsigned int l)
{
	if (!line_dirty(w, l))
		return;
	memcpy(sim_ram + w->line_pa[l] + l * LINE, line_data(w, l), LINE);
	memcpy(w->clean + l * LINE, line_data(w, l), LINE);
	stats.writebacks++;
	memory_updated(w, w->line_pa[l], l);
}

static void invalidate_line(struct window *w, unsigned int l, const char *op)
{
	if (line_dirty(w, l))
		violation(SIM_LOST_WRITE, w, w->line_pa[l], "clean (c7,c10,1) before the invalidate",
			  "%s dropped dirty line %u", op, l);
	if (w->valid[l])
		close_window(w);
	w->valid[l] = false;
	w->stale[l] = false;
}

/* Apply fn to every window line in [start, end). */
static void for_lines(uintptr_t start, uintptr_t end, bool clean, bool inv, const char *op)
{
	uintptr_t a;

	for (a = start & ~(uintptr_t)(LINE - 1); a < end; a += LINE) {
		struct window *w = window_at(a);
		unsigned int l;

		if (!w)
			continue;
		l = (unsigned int)((a - w->va) / LINE);
		if (clean)
			clean_line(w, l);
		if (inv)
			invalidate_line(w, l, op);
	}
}

/* ---- the primitives of asm/cacheflush.h and asm/tlbflush.h ---------------- */

void __cpuc_flush_dcache_area(void *addr, size_t size)
{
	uintptr_t s = (uintptr_t)addr, e = s + size;

	sync_ptes();
	clean_tables(s, e, true);
	for_lines(s, e, true, true, "clean+invalidate");
	drain_write_buffer();
}

void cpu_dcache_clean_area(void *addr, size_t size)
{
	uintptr_t s = (uintptr_t)addr, e = s + size;

	sync_ptes();
	clean_tables(s, e, false);
	for_lines(s, e, true, false, "clean");
}

void cpu_dcache_inv_area(void *addr, size_t size)
{
	uintptr_t s = (uintptr_t)addr;

	sync_ptes();
	for_lines(s, s + size, false, true, "invalidate (c7,c6,1)");
}

void __cpuc_flush_kern_all(void)
{
	sync_ptes();
	clean_tables(0, UINTPTR_MAX, true);
	for (unsigned int i = 0; i < NR_WINDOWS; i++)
		for (unsigned int l = 0; l < LINES; l++) {
			clean_line(&windows[i], l);
			invalidate_line(&windows[i], l, "flush all");
		}
	drain_write_buffer();
}

void __cpuc_flush_icache_all(void)
{
	sync_ptes();
}

void cpu_drain_write_buffer(void)
{
	sync_ptes();
	drain_write_buffer();
}

void (*sim_irq_at_tlb_flush)(unsigned long vaddr);

void local_flush_tlb_kernel_page(unsigned long vaddr)
{
	struct window *w;

	sync_ptes();
	w = window_at(vaddr);
	if (w) {
		w->tlb_valid = false;
		close_window(w);
	}
	/* A test's "interrupt" arriving right after this maintenance step. */
	if (sim_irq_at_tlb_flush && !sim_irqs_off)
		sim_irq_at_tlb_flush(vaddr);
}

void local_flush_tlb_all(void)
{
	sync_ptes();
	for (unsigned int i = 0; i < NR_WINDOWS; i++) {
		windows[i].tlb_valid = false;
		close_window(&windows[i]);
	}
}

/* ---- an access that missed ------------------------------------------------ */

/* Reading (pa, line l) from memory: does another alias hold newer data? */
static void check_alias_newer(struct window *w, phys_addr_t pa, unsigned int l)
{
	for (unsigned int i = 0; i < NR_WINDOWS; i++) {
		struct window *o = &windows[i];

		if (o != w && o->valid[l] && o->line_pa[l] == pa && line_dirty(o, l) &&
		    memcmp(line_data(o, l), sim_ram + pa + l * LINE, LINE) != 0) {
			violation(SIM_STALE_READ, w, pa, "clean of the other alias before this access",
				  "line %u read from memory while %s slot %d (VA 0x%lx) holds newer data",
				  l, o->kind, o->slot, o->va);
			return;
		}
	}
}

static void model_fault(struct window *w, unsigned long addr, bool write)
{
	phys_addr_t pa;
	unsigned int l, stale = 0;

	stats.faults++;
	sync_ptes();
	if (!w->tlb_valid) {
		pte_t cpu = *w->cpu_pte, walked = w->walker_pte;

		stats.walks++;
		if (walked != cpu)
			violation(SIM_UNCLEANED_PTE, w, (phys_addr_t)(pte_pfn(cpu) << PAGE_SHIFT),
				  w->wb_pending && w->wb_pte == cpu ?
				  "drain of the write buffer (c7,c10,4) after the PTE clean" :
				  "clean of the PTE's line (c7,c10,1) after the PTE write",
				  "walker saw PTE 0x%08x, the CPU wrote 0x%08x",
				  (unsigned int)walked, (unsigned int)cpu);
		if (pte_none(walked))
			sim_data_abort(addr, write);
		w->tlb_valid = true;
		w->tlb_pte = walked;
	} else if (w->tlb_pte != *w->cpu_pte) {
		violation(SIM_STALE_TLB, w, (phys_addr_t)(pte_pfn(w->tlb_pte) << PAGE_SHIFT),
			  "TLB invalidate (local_flush_tlb_kernel_page, c8,c7,1) after the PTE change",
			  "TLB still translates with PTE 0x%08x, the table holds 0x%08x",
			  (unsigned int)w->tlb_pte, (unsigned int)*w->cpu_pte);
	}
	pa = (phys_addr_t)(pte_pfn(w->tlb_pte) << PAGE_SHIFT);
	if (pa >= RAM_SIZE)
		sim_data_abort(addr, write);

	if (!pte_cacheable(w->tlb_pte)) {
		for (l = 0; l < LINES; l++)
			check_alias_newer(w, pa, l);
		open_uncached(w, pa);
		return;
	}
	for (l = 0; l < LINES; l++) {
		if (w->valid[l]) {
			stale += w->stale[l];
			w->stale[l] = false;
			continue;
		}
		check_alias_newer(w, pa, l);
		memcpy(w->data + l * LINE, sim_ram + pa + l * LINE, LINE);
		memcpy(w->clean + l * LINE, w->data + l * LINE, LINE);
		w->valid[l] = true;
		w->line_pa[l] = pa;
		stats.fills++;
	}
	if (stale)
		violation(SIM_STALE_READ, w, pa, "clean+invalidate of this alias before the other wrote",
			  "%u cached line(s) are older than what another alias wrote to memory", stale);
	open_window(w);
}

static struct sigaction chained;

static void segv_handler(int sig, siginfo_t *si, void *uc)
{
	unsigned long addr = (unsigned long)si->si_addr;
	struct window *w = windows ? window_at(addr) : NULL;
	bool write = false;

#if defined(__x86_64__)
	write = (((ucontext_t *)uc)->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#endif
	if (w && !w->open) {
		model_fault(w, addr, write);
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

void sim_model_setup(void)
{
	windows = calloc(NR_WINDOWS, sizeof(*windows));
	if (!windows)
		abort();
	for (unsigned int i = 0; i < NR_WINDOWS; i++) {
		struct window *w = &windows[i];

		if (i < LAST_PKMAP) {
			w->va = sim_pkmap_base + i * PAGE_SIZE;
			w->kind = "pkmap";
			w->slot = (int)i;
			w->cpu_pte = &sim_pkmap_pt[i];
		} else {
			w->slot = (int)(i - LAST_PKMAP);
			w->va = __fix_to_virt(FIX_KMAP_BEGIN + w->slot);
			w->kind = "fixmap";
			w->cpu_pte = &sim_fixmap_pt[w->slot];
		}
	}
}

void sim_model_reset(void)
{
	for (unsigned int i = 0; i < NR_WINDOWS; i++) {
		struct window *w = &windows[i];

		close_window(w);
		w->walker_pte = w->wb_pte = w->seen_pte = w->tlb_pte = 0;
		w->wb_pending = w->tlb_valid = false;
		memset(w->valid, 0, sizeof(w->valid));
		memset(w->stale, 0, sizeof(w->stale));
		memset(w->line_pa, 0, sizeof(w->line_pa));
	}
	memset(violations, 0, sizeof(violations));
	last_violation[0] = '\0';
	memset(&stats, 0, sizeof(stats));
}
