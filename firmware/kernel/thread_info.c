/* thread_snapshot(): the thread table for consoles (see lokal/sysinfo.h). */
#include <string.h>
#include <lokal/sysinfo.h>
#include <lokal/thread.h>
#include <lokal/sched-internal.h>
#include <asm/fixmap.h>
#include <lokal/preempt.h>
#include <lokal/mutex.h>

static const char *const state_names[] = {
	[THREAD_READY] = "ready",
	[THREAD_BLOCKED] = "blocked",
	[THREAD_SLEEPING] = "sleeping",
	[THREAD_DEAD] = "dead",
	[THREAD_SUSPENDED] = "suspended",
};

static void fill_info(struct thread_info *ti, const struct thread *t)
{
	unsigned int n = 0;

	/* The short part with preemption off, so the thread's maps hold still. */
	preempt_disable();
	memcpy(ti->name, t->name, sizeof(ti->name));
	ti->id = t->id;
	ti->prio = t->prio;
	ti->state = t == current ? "running" : t->suspended ? "suspended" : state_names[t->state];
	ti->switches = t->switches_in;
	ti->stack_size = t->stack ? t->stack_size : 0;
	/* Level k of the stack of maps sits in slot k * KM_INCR + KM_INCR - 1. */
	for (int slot = KM_INCR - 1; slot < t->kmap_ctrl.idx; slot += KM_INCR) {
		pte_t pte = t->kmap_ctrl.pteval[slot];

		ti->kmap[n].slot = (unsigned int)slot;
		ti->kmap[n].vaddr = __fix_to_virt(FIX_KMAP_BEGIN + slot);
		ti->kmap[n].pfn = pte_pfn(pte);
		n++;
	}
	ti->kmaps = n;
	preempt_enable();
	/* The scan grows with the stack: preemptible (a high-water mark only grows). */
	ti->stack_used = t->stack ? t->stack_size - thread_stack_unused(t) : 0;
}

/*
 * Preemptible: threads_lock keeps every thread on the list until the walk
 * is done (thread_join() frees under it), and each thread's copy holds
 * preemption off only for its fixed-size part, so a wake-up never waits
 * for the stack scans.
 */
unsigned int thread_snapshot(struct thread_info *out, unsigned int max)
{
	struct list_head *pos;
	unsigned int n = 0;

	might_sleep();
	mutex_lock(&threads_lock);
	list_for_each(pos, &all_threads) {
		if (n < max)
			fill_info(&out[n], list_entry(pos, struct thread, all));
		n++;
	}
	mutex_unlock(&threads_lock);
	return n;
}
