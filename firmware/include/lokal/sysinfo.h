/*
 * Read-only snapshots of kernel state for consoles and diagnostics: the
 * thread table with each thread's local kmaps, and the pkmap pool.
 */
#ifndef LOKAL_SYSINFO_H
#define LOKAL_SYSINFO_H

#include <stddef.h>
#include <lokal/sched.h>

struct kmap_slot_info {
	unsigned int slot;              /* fixmap kmap slot index */
	unsigned long vaddr;
	unsigned long pfn;
};

struct thread_info {
	char name[THREAD_NAME_LEN];
	unsigned int id;
	int prio;
	const char *state;              /* "running", "ready", "blocked", "sleeping", "dead" */
	unsigned long switches;
	size_t stack_size;              /* 0: the boot stack, not measured */
	size_t stack_used;              /* high-water mark */
	unsigned int kmaps;             /* local kmap depth */
	struct kmap_slot_info kmap[KM_MAX_IDX];
};

/*
 * Copy the state of up to max threads into out[], oldest first, and return
 * how many threads exist (may exceed max). Taken with interrupts off, so
 * every entry is consistent; kmaps are listed from the outermost level.
 */
unsigned int thread_snapshot(struct thread_info *out, unsigned int max);

struct pkmap_info {
	unsigned int slots;             /* LAST_PKMAP */
	unsigned int in_use;            /* count >= 2: held by kmap() users */
	unsigned int awaiting_flush;    /* count 1: unused, reusable after the next flush */
	unsigned int free;              /* count 0 */
	unsigned int waiters;           /* threads sleeping in kmap() for a free slot */
};

/* The pkmap pool's counts, taken with preemption off. */
void pkmap_get_info(struct pkmap_info *pi);

/* Threads sleeping in kmap() for a slot (firmware/mm/pkmap.c; interrupts off). */
unsigned int pkmap_nr_waiters(void);

#endif
