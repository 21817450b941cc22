/*
 * Private to arch/sim: the pieces of the ARM926 model that its files
 * share. model.c owns the windows (host pages standing for virtual pages),
 * the TLB and the table walker; cache.c the set-associative D-cache;
 * access.c the accesses that need the model (faults, write misses).
 */
#ifndef SIM_MODEL_H
#define SIM_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <lokal/highmem-internal.h>
#include <asm/sim.h>

#define LINE            32u
#define LINES           (PAGE_SIZE / LINE)
#define WAYS            4u
#define NR_KMAP_WINDOWS (LAST_PKMAP + KM_MAX_IDX)
#define NR_DIRECT       (LOWMEM_SIZE >> PAGE_SHIFT)
#define NR_WINDOWS      (NR_KMAP_WINDOWS + NR_DIRECT)

struct cline;

/* One virtual page the model manages: a pkmap slot, a fixmap slot or a direct-map page. */
struct window {
	unsigned long va;
	const char *kind;       /* "pkmap", "fixmap" or "direct map" */
	int slot;               /* slot number, or pfn for the direct map */
	pte_t *cpu_pte;         /* the entry as the CPU (and its D-cache) sees it; NULL: direct map */
	pte_t walker_pte;       /* the entry as memory holds it */
	pte_t wb_pte;           /* cleaned, waiting in the write buffer */
	bool wb_pending;
	pte_t seen_pte;         /* cpu_pte at the previous model event */

	bool tlb_valid;
	pte_t tlb_pte;

	bool open;              /* host page accessible: it holds the cached lines' data */
	bool uncached;          /* open onto RAM itself (PTE without the C bit) */
	bool stepping;          /* a scratch page while one store is single-stepped */
	struct cline *line[LINES];      /* this page's lines in the cache, or NULL */
};

/* One line of the D-cache. */
struct cline {
	struct window *w;       /* NULL: invalid */
	unsigned int l;         /* line index within w's page */
	phys_addr_t pa;         /* where a write-back goes (the ARM926 keeps it per line) */
	bool stale;             /* memory got newer data from another alias since the fill */
	bool dma;               /* ... from a device (sim_dma_write) */
	uint8_t data[LINE];     /* content while w is closed */
	uint8_t clean[LINE];    /* memory's content at the fill or last write-back */
};

extern struct window *sim_windows;
extern struct sim_stats sim_model_stats;

/* ---- model.c ---- */
struct window *sim_window_at(unsigned long va);
void sim_close_window(struct window *w);
void sim_violation(enum sim_violation kind, const struct window *w, phys_addr_t pa,
		   const char *missing, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
/* Note PTE changes made by plain stores since the last model event. */
void sim_sync_ptes(void);
/* Translate an access to w (TLB, then walker); aborts like the hardware if unmapped. */
phys_addr_t sim_translate(struct window *w, unsigned long addr, bool write);

/* ---- cache.c ---- */
void sim_cache_setup(void);
void sim_cache_reset(void);
uint8_t *sim_line_data(struct cline *c);
bool sim_line_dirty(struct cline *c);
/* Write a dirty line back to its PA (reporting a clobbered alias write). */
void sim_clean_line(struct cline *c);
/* Drop a line (reporting dirty data lost), op names the maintenance call. */
void sim_invalidate_line(struct cline *c, const char *op);
/* Drop a line, dirty or not, without a report (its bytes are a device's). */
void sim_discard_line(struct cline *c);
/* Allocate and fill line l of w from pa (evicting a victim); the window stays closed. */
struct cline *sim_fill_line(struct window *w, unsigned int l, phys_addr_t pa);
/* Memory at (pa of line l) was written by someone other than c: other copies go stale. */
void sim_memory_updated(const struct cline *c, phys_addr_t line_pa);
/* Before reading (line_pa) from memory: does a dirty alias hold newer data? */
void sim_check_alias_newer(struct window *w, phys_addr_t line_pa);
/* A device wrote memory at line_pa: every line holding it is stale. */
void sim_dma_wrote(phys_addr_t line_pa);
/* A device reads [off, off + len) of the line at line_pa: may a dirty line be newer? */
void sim_dma_check_read(phys_addr_t line_pa, unsigned int off, unsigned int len);
/* Every valid line, in cache order (for whole-cache operations). */
unsigned int sim_cache_lines(void);
struct cline *sim_cache_line(unsigned int i);

/* ---- access.c ---- */
/* A fault on a closed window: read-allocate, or a write miss to memory. */
void sim_access_fault(struct window *w, unsigned long addr, bool write, void *uc);
void sim_install_trap_handler(void);

#endif
