/*
 * Host-only controls of the simulated ARM926 (arch/sim): set-up, the cache
 * and TLB model's verdicts, and a way for tests to run code that is
 * expected to stop the machine.
 */
#ifndef ASM_SIM_H
#define ASM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <asm/memory.h>
#include <asm/pgtable.h>

/* Exit status of a simulated data abort (arch/arm uses the same value). */
#define SIM_FAULT_EXIT_STATUS 4

/*
 * What the model can catch the kernel doing wrong: the emulator's kinds
 * (report-kinds.h, one list and one set of names for both models), of
 * which the host sees all but stale instruction fetches, plus the two it
 * judges when a window's PTE changes.
 */
#include <asm/report-kinds.h>
enum sim_violation {
	SIM_STALE_TLB = ARM926_STALE_TLB,       /* a TLB entry was used after its PTE changed */
	SIM_LOST_WRITE = ARM926_LOST_WRITE_INVAL, /* an invalidate dropped dirty lines */
	SIM_STALE_READ = ARM926_STALE_READ,     /* read through an alias older than the newest write */
	SIM_REMAP_DIRTY = ARM926_REMAP_DIRTY,   /* PTE changed while the old page's lines were dirty */
	SIM_STALE_LINES = ARM926_REMAP_VALID,   /* window remapped while it held another page's lines */
	SIM_UNCLEANED_PTE = ARM926_UNCLEAN_WALK, /* table walker read a PTE the CPU wrote but never cleaned */
	SIM_WW_ALIAS = ARM926_LOST_WRITE_WB,    /* a write-back overwrote data another alias wrote back */
	SIM_DMA_READ_DIRTY = ARM926_DMA_STALE_MEMORY, /* a device read memory while a dirty line held newer data */
	SIM_DMA_STALE_READ = ARM926_DMA_STALE_LINE, /* the CPU read a line older than what a device wrote */
	SIM_DMA_CLOBBER = ARM926_DMA_CLOBBER,   /* a write-back landed on memory a device wrote */
	SIM_NR_VIOLATIONS = ARM926_NR_REPORTS,
};

/* Create RAM, windows and tables (idempotent) and reset every state. */
void sim_reset(void);
/* Re-install the SIGSEGV handler (cmocka replaces it before each test). */
void sim_install_fault_handler(void);

/* Violations since the last reset: of one kind, or all with SIM_NR_VIOLATIONS. */
unsigned int sim_violations(enum sim_violation kind);
/* Forget the violations seen so far (tests that provoke them on purpose). */
void sim_clear_violations(void);
/* Text of the most recent violation ("" if none). */
const char *sim_last_violation(void);
const char *sim_violation_name(enum sim_violation kind);
/* Print each violation to stderr as it happens (default on). */
extern bool sim_verbose;

/*
 * If set, called after every single-page TLB invalidate made with
 * interrupts on, as if an interrupt arrived there (host scheduler tests
 * use it to land an IRQ inside a context switch's kmap steps).
 */
extern void (*sim_irq_at_tlb_flush)(unsigned long vaddr);

/* Where else an interrupt can land inside the kmap code (interrupts on). */
enum sim_irq_point {
	SIM_IRQ_AFTER_TLB_FLUSH,        /* after a single-page TLB invalidate */
	SIM_IRQ_IN_FLUSH,               /* halfway through a clean+invalidate of a range or of all */
	SIM_IRQ_AFTER_FLUSH,            /* after a clean+invalidate: before the PTE clear */
	SIM_IRQ_BEFORE_PTE_WRITE,       /* set_pte_ext() entered: after the index push */
	SIM_IRQ_AT_UNMASK,              /* interrupts just unmasked (vaddr 0) */
	SIM_NR_IRQ_POINTS,
};
/*
 * If set, called at each of those points as if an interrupt arrived there;
 * vaddr is the slot (or range start) concerned. Never nested: points inside
 * the hook itself are skipped. sim_reset() clears it.
 */
extern void (*sim_irq_at)(enum sim_irq_point where, unsigned long vaddr);
/* Called by the host's set_pte_ext() before it stores (asm/pgtable.h). */
void sim_irq_before_pte_write(pte_t *ptep);

/*
 * D-cache size in bytes (power of two, 4 KiB to 128 KiB; default 16 KiB),
 * 4-way, 32-byte lines. Takes effect at once and empties the cache; returns
 * -1 for a size the ARM926 does not have.
 */
int sim_set_dcache_size(unsigned int bytes);
unsigned int sim_dcache_size(void);

/*
 * A DMA bus master: copies between buf and physical memory, never the
 * D-cache or the write buffer, as a device does. The oracle reports a read
 * of bytes a dirty line holds newer data for (SIM_DMA_READ_DIRTY); lines
 * holding what a write replaced are marked, so that a CPU read hitting one
 * (SIM_DMA_STALE_READ) or its write-back (SIM_DMA_CLOBBER) is reported.
 */
void sim_dma_read(phys_addr_t pa, void *buf, size_t len);
void sim_dma_write(phys_addr_t pa, const void *buf, size_t len);

/*
 * The bytes the model's console DMA engine (arch/sim/console_dma.c) read
 * since the last call, at most size of them into buf; returns how many.
 */
size_t sim_console_dma_take(char *buf, size_t size);

/* Physical memory as the RAM chips hold it (bypasses the cache model). */
uint8_t *sim_phys(phys_addr_t pa);

/* Model counters, for tests that check the model was exercised. */
struct sim_stats {
	unsigned long faults;           /* window accesses that needed the model */
	unsigned long walks;            /* TLB misses */
	unsigned long fills;            /* lines filled from memory */
	unsigned long writebacks;       /* dirty lines written to memory */
	unsigned long evictions;        /* lines replaced to make room */
	unsigned long write_misses;     /* lines a store wrote to memory, not the cache */
};
void sim_get_stats(struct sim_stats *st);

/* The window (pkmap, fixmap or direct-map page) containing a host address, or -1. */
int sim_window_of(unsigned long va);

/*
 * Run fn(arg) expecting it to end in machine_halt() (panic, data abort).
 * Returns the halt status, or -1 if fn returned. What was printed on
 * stdout meanwhile is copied into out (NUL-terminated).
 */
int sim_expect_halt(void (*fn)(void *), void *arg, char *out, size_t outlen);

/* Used by sim.c and model.c only. */
void sim_model_reset(void);
void sim_model_setup(void);
void sim_data_abort(unsigned long addr, bool write);
extern uint8_t *sim_ram;                /* the model's view of physical memory */
extern int sim_ram_fd;                  /* the memfd behind it */
extern pte_t sim_pkmap_pt[];
extern pte_t sim_fixmap_pt[];
#define SIM_FIXMAP_SLOTS        KM_MAX_IDX

#endif
