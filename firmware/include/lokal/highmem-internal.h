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
 * The scheduler's pair around the register switch, as Linux's
 * prepare_task_switch() and finish_task_switch() (both with preemption
 * disabled; interrupts may be on). kmap_local_sched_out(prev) runs before
 * prev gives up the CPU, kmap_local_sched_in(next) once next is current.
 * Neither touches kmap_ctrl.idx, so an interrupt that maps meanwhile nests
 * above it on a slot nobody else uses and leaves before the switch goes on.
 * Call each only when kmap_sched_out_pending(prev) or
 * kmap_sched_in_pending(next) says it has work: the scheme keeps those
 * two flags (in struct thread's switch_work), so a switch between threads
 * without work pays one load each.
 */
void kmap_local_sched_out(struct thread *prev);
void kmap_local_sched_in(struct thread *next);

/*
 * The scheduler's preemption point for a switch's kmap work, which mm
 * calls between bounded steps: true when a thread is ready that outranks
 * the one switching in (or, in a switch-out, the one switched to). The
 * work then stops where it is (what is left is done later, by the scheme's
 * rules) and the switch goes on to the more urgent thread. Always false
 * outside a switch's kmap window.
 */
bool kmap_switch_point(void);

/* Non-zero if prev's switch-out has work (unsigned: the scheduler ORs it with other flags). */
static inline unsigned int kmap_sched_out_pending(const struct thread *prev)
{
	return prev->switch_work.kmap_out;
}

/* Non-zero if next's switch-in has work. */
static inline unsigned int kmap_sched_in_pending(const struct thread *next)
{
	return next->switch_work.kmap_in;
}

/* Thread t is new or gone: it holds no map and can no longer claim the slots. */
void kmap_local_forget(struct thread *t);

/*
 * No kmap_local slot but the running thread's own maps holds pfn (or any
 * of its cache lines) when this returns: for a page about to be freed,
 * given a new kmap() address, or read or written by something other than
 * the CPU. Never sleeps; the line work is preemptible when the caller is.
 * Safe with interrupts off and from interrupt handlers.
 */
void kmap_local_flush_page(unsigned long pfn);

/* Called by mm_init(): forget any state a previous boot (host test) left. */
void kmap_local_init(void);

/* What the deferred scheme (kmap_defer.c) did since kmap_local_init(): tests and bench. */
struct kmap_defer_stats {
	unsigned long reuse_flushes;    /* slot flushed: a different pteval went in */
	unsigned long alias_flushes;    /* slot flushed: its page got another address, or left the CPU */
	unsigned long shared_maps;      /* the same pteval found in the slot and taken, no flush */
	unsigned long walks;            /* switch-ins that had to look at the slots */
	unsigned long walks_cut;        /* of those, stopped for a more urgent thread */
};
/* Only in a build that links the deferred scheme (CONFIG_KMAP_DEFER). */
void kmap_defer_get_stats(struct kmap_defer_stats *st);

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

/*
 * True if addr lies in a kmap_local slot: an address that means the
 * mapping context's own slot, and another page (or none) in every other
 * thread and interrupt handler. Services that keep a pointer for another
 * context to use (a waiter's buffer, a queue's ring) test it here.
 */
static inline bool kmap_local_addr(const void *addr)
{
	unsigned long a = (unsigned long)addr;

	return a >= __fix_to_virt(FIX_KMAP_END) && a < __fix_to_virt(FIX_KMAP_BEGIN) + PAGE_SIZE;
}

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
