/*
 * Highmem machinery behind lokal/highmem.h: the pieces the scheduler, the
 * fault handler and the mm code itself call. Drivers and applications use
 * lokal/highmem.h only.
 */
#ifndef LOKAL_HIGHMEM_INTERNAL_H
#define LOKAL_HIGHMEM_INTERNAL_H

#include <stddef.h>
#include <string.h>
#include <lokal/mm.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/pgtable.h>
#include <asm/fixmap.h>
#include <asm/highmem.h>

struct thread;

/* Architectures without cache or TLB concerns need none of the hooks. */
#ifndef arch_kmap_local_post_map
# define arch_kmap_local_post_map(vaddr, pteval)        do { } while (0)
#endif
#ifndef arch_kmap_local_pre_unmap
# define arch_kmap_local_pre_unmap(vaddr)               do { } while (0)
#endif
#ifndef arch_kmap_local_post_unmap
# define arch_kmap_local_post_unmap(vaddr)              do { } while (0)
#endif
#ifndef arch_kmap_local_high_get
# define arch_kmap_local_high_get(page)                 ((void *)0)
#endif
#ifndef flush_cache_kmaps
# define flush_cache_kmaps()                            do { } while (0)
#endif
#ifndef flush_tlb_kmaps
# define flush_tlb_kmaps()                              do { } while (0)
#endif

#ifndef kmap_prot
#define kmap_prot PAGE_KERNEL
#endif

/* ---- local kmaps (firmware/mm/highmem.c) ---------------------------------- */

/*
 * Map a highmem pfn into the current thread's next fixmap slot with the
 * given protection, and return its address; this pushes one level of the
 * thread's kmap stack. A lowmem pfn returns its direct-map address and
 * maps nothing (VIVT: no second alias of the direct map).
 */
void *__kmap_local_pfn_prot(unsigned long pfn, pgprot_t prot);
/*
 * Like __kmap_local_pfn_prot() for a page, except that a lowmem page
 * returns its direct-map address and a highmem page that is already kmap()ed
 * returns its pkmap address with one more reference (VIVT: no second alias).
 */
void *__kmap_local_page_prot(struct page *page, pgprot_t prot);
/*
 * Undo one local map, given any address inside the mapped page. Fixmap
 * addresses must be the top of the thread's stack; pkmap addresses drop
 * the reference taken by the fallback above; direct-map addresses do
 * nothing. Anything else is a reported bug.
 */
void kunmap_local_indexed(const void *vaddr);

/*
 * Context switch (called by the scheduler with preemption disabled,
 * interrupts may be on). sched_out removes the outgoing thread's local maps
 * from the slots (writing back and dropping their cache lines first);
 * sched_in re-installs the incoming thread's. Neither touches
 * kmap_ctrl.idx, so an interrupt that maps meanwhile nests above it on
 * empty slots and leaves before the switch goes on.
 * With CONFIG_KMAP_LAZY, sched_out only cleans the cache and leaves the PTE
 * and TLB entry in place; sched_in skips a slot that still holds the
 * incoming thread's PTE. With CONFIG_KMAP_DEFER, sched_out does nothing
 * and sched_in is kmap_defer_sched_in() (the scheduler skips both calls
 * when they have nothing to do).
 */
void __kmap_local_sched_out(void);
void __kmap_local_sched_in(void);

/* Called by mm_init(): forget any state a previous boot (host test) left. */
void kmap_local_init(void);

/* ---- KMAP_DEFER: the deferred flush (firmware/mm/kmap_defer.c) ------------ */

/* Called by kmap_local_init(): every slot empty, nobody's maps resident. */
void kmap_defer_init(void);
#if CONFIG_KMAP_DEFER
/*
 * The thread whose maps are all resident in their slots, with none of its
 * pages in another slot, or NULL: switching back to it costs nothing.
 */
extern struct thread *kmap_slots_owner;
/*
 * Current's map idx, already pushed and recorded as pteval, goes into its
 * slot: any other slot that is not the current thread's and holds the page
 * is flushed (it would be an alias), a different pteval left in slot idx
 * is flushed, and the same pteval left there is taken over as it is,
 * without a flush. Called with preemption on (thread context) or off
 * (atomic, IRQ); the line work runs with it as the caller has it.
 */
void kmap_defer_map(int idx, pte_t pteval);
/*
 * Current's top map idx goes: lines written back and dropped (preemptible
 * if the caller is), slot empty. Returns with preemption disabled once more.
 */
void kmap_defer_unmap(int idx);
/*
 * Switch-in of current: put back whichever of its maps were flushed or
 * replaced while it was away, and flush any other slot holding one of its
 * pages. Nothing at all when it is kmap_slots_owner.
 */
void kmap_defer_sched_in(void);
/* Flush every slot, except the running thread's own maps, that holds pfn. */
void kmap_defer_flush_page(unsigned long pfn);
/* Thread t is new or gone: it can no longer claim the slots. */
void kmap_defer_forget(const struct thread *t);
/* What the deferred scheme did since kmap_local_init() (tests and bench). */
struct kmap_defer_stats {
	unsigned long reuse_flushes;    /* slot flushed: a different pteval went in */
	unsigned long alias_flushes;    /* slot flushed: its page got another address, or left the CPU */
	unsigned long shared_maps;      /* the same pteval found in the slot and taken, no flush */
	unsigned long walks;            /* switch-ins that had to look at the slots */
	unsigned long unmap_flushes;    /* a thread's own unmaps */
};
void kmap_defer_get_stats(struct kmap_defer_stats *st);
#else
static inline void kmap_defer_flush_page(unsigned long pfn)
{
	(void)pfn;
}
#endif

/*
 * CONFIG_DEBUG_HIGHMEM: panic (naming both threads and the address) if any
 * thread holds page in a local kmap, before kmap() gives it a pkmap alias.
 * Interrupts off.
 */
void kmap_check_no_local_alias(const struct page *page);

/* New thread: its kmap state starts empty (a warning if it was not). */
void kmap_local_fork(struct thread *t);

/*
 * A thread must not end (or return to a context that cannot hold maps)
 * while it holds local maps: panics naming t and every leaked address and
 * pfn when t->kmap_ctrl.idx is not zero.
 */
void kmap_assert_nomap(struct thread *t);

/*
 * For the data-abort handler: if addr lies in a fixmap kmap slot (mapped,
 * empty, or a DEBUG_HIGHMEM guard page) or in the pkmap window, write a
 * description such as "kmap guard page between slots 2 and 4" into buf and
 * return buf; otherwise return NULL. Safe to call from the abort handler.
 */
const char *kmap_describe_fault(unsigned long addr, char *buf, unsigned long len);

/* The fixmap slot index behind a fixmap kmap address. */
static inline int kmap_local_slot(unsigned long vaddr)
{
	return (int)__virt_to_fix(vaddr) - FIX_KMAP_BEGIN;
}

/* ---- pkmap pool (firmware/mm/pkmap.c) ------------------------------------- */

/* Map a highmem page into the pkmap pool (may sleep when the pool is full). */
void *kmap_high(struct page *page);
/* Drop one kmap_high() reference. */
void kunmap_high(struct page *page);
/* The page's pkmap address with one more reference, or NULL if it has none. */
void *kmap_high_get(struct page *page);
/*
 * For __free_page(): if the page keeps a pkmap slot nobody holds (kmap();
 * kunmap(); and no flush since), release that slot now: its lines written
 * back and dropped, PTE and TLB entry gone. Returns the number of kmap()
 * holders, 0 when the page is left with no pkmap address.
 */
int kmap_high_release(struct page *page);
/* Release every pkmap slot nobody holds (one cache and one TLB flush). */
void __kmap_flush_unused(void);
/* The page behind a kmap (pkmap or fixmap) or direct-map address. */
struct page *__kmap_to_page(const void *addr);
/* Called by mm_init(): empty pool, no waiter. */
void kmap_pkmap_init(void);
/* Reference count of one pkmap slot (0 free, 1 mapped but unused, n: n-1 users). */
int pkmap_slot_count(unsigned int nr);

static inline struct page *pte_page(pte_t pte)
{
	return pfn_to_page(pte_pfn(pte));
}

static inline pte_t mk_pte(const struct page *page, pgprot_t prot)
{
	return pfn_pte(page_to_pfn(page), prot);
}

/* ---- inline implementations of the public API ----------------------------- */

static inline void *kmap(struct page *page)
{
	might_sleep();
	if (!PageHighMem(page))
		return page_address(page);
	return kmap_high(page);
}

static inline void kunmap(struct page *page)
{
	might_sleep();
	if (!PageHighMem(page))
		return;
	kunmap_high(page);
}

static inline struct page *kmap_to_page(void *addr)
{
	return __kmap_to_page(addr);
}

static inline void kmap_flush_unused(void)
{
	__kmap_flush_unused();
}

static inline void *kmap_local_page(struct page *page)
{
	return __kmap_local_page_prot(page, kmap_prot);
}

static inline void *kmap_local_page_prot(struct page *page, pgprot_t prot)
{
	return __kmap_local_page_prot(page, prot);
}

static inline void *kmap_local_pfn(unsigned long pfn)
{
	return __kmap_local_pfn_prot(pfn, kmap_prot);
}

static inline void *kmap_atomic_prot(struct page *page, pgprot_t prot)
{
	preempt_disable();
	pagefault_disable();
	return __kmap_local_page_prot(page, prot);
}

static inline void *kmap_atomic(struct page *page)
{
	return kmap_atomic_prot(page, kmap_prot);
}

static inline void *kmap_atomic_pfn(unsigned long pfn)
{
	preempt_disable();
	pagefault_disable();
	return __kmap_local_pfn_prot(pfn, kmap_prot);
}

static inline void __kunmap_atomic(const void *addr)
{
	kunmap_local_indexed(addr);
	pagefault_enable();
	preempt_enable();
}

/*
 * The unmap calls take the address the map returned. A struct page * is the
 * classic mix-up with kunmap(): refuse it at compile time here, and at run
 * time in kunmap_local_indexed() for a pointer that lost its type.
 */
#define KMAP_REJECT_PAGE(addr)                                                  \
	_Static_assert(!__builtin_types_compatible_p(__typeof__(addr), struct page *), \
		       "pass the address returned by the map call, not the struct page")

#define kunmap_atomic(__addr)                                                   \
	do {                                                                    \
		KMAP_REJECT_PAGE(__addr);                                       \
		__kunmap_atomic(__addr);                                        \
	} while (0)

#define kunmap_local(__addr)                                                    \
	do {                                                                    \
		KMAP_REJECT_PAGE(__addr);                                       \
		kunmap_local_indexed(__addr);                                   \
	} while (0)

#endif
