/* Sleeping locks for threads: mutex (with owner) and counting semaphore. */
#ifndef LOKAL_MUTEX_H
#define LOKAL_MUTEX_H

#include <stdbool.h>
#include <lokal/wait.h>
#include <lokal/handle.h>
#include <lokal/timeout.h>
#include <asm/irqflags.h>

struct thread;

/*
 * Priority inheritance: while a thread waits for a mutex, the owner runs at
 * least at the waiter's priority (through chains of mutexes too), so a
 * middle-priority thread cannot hold up a high-priority one indefinitely by
 * starving the low-priority owner. The mutex goes to its most urgent waiter.
 */
struct mutex {
	unsigned int magic;
	struct thread *owner;
	struct wait_queue waiters;
	struct list_head held;          /* on owner->held_mutexes */
};

#define MUTEX_INIT(name) { MUTEX_MAGIC, NULL, WAIT_QUEUE_INIT((name).waiters), \
			   LIST_HEAD_INIT((name).held) }
/* A mutex ready at boot, no mutex_init() call: static DEFINE_MUTEX(lock); */
#define DEFINE_MUTEX(name) struct mutex name = MUTEX_INIT(name)

/*
 * Every mutex call is for threads only (not IRQ handlers). A thread that
 * thread_suspend() stops while it owns a mutex keeps it: waiters wait
 * until it is resumed and unlocks (and lend it their priority meanwhile,
 * which cannot make a suspended thread run).
 */
void mutex_init(struct mutex *m);
/* Sleep until m is free, then own it. Locking a mutex you own is a reported bug. */
void mutex_lock(struct mutex *m);
/*
 * The same for at most timeout ticks (lokal/timeout.h): 0 once owned,
 * -EAGAIN if timeout is 0 and m is taken, -ETIMEDOUT if the time ran
 * out first (the priority lent to the owner is then taken back).
 */
int mutex_lock_timeout(struct mutex *m, long timeout);
/* Own m if it is free, never sleeping: true when owned (Linux's sense). Threads only. */
bool mutex_trylock(struct mutex *m);
/* Release m; only the owner may. The most urgent waiter (FIFO among equals) gets it next. */
void mutex_unlock(struct mutex *m);

struct semaphore {
	unsigned int magic;
	int count;
	struct wait_queue waiters;
};

#define __SEMAPHORE_INITIALIZER(name, n) { SEMA_MAGIC, (n), WAIT_QUEUE_INIT((name).waiters) }
#define DEFINE_SEMAPHORE(name, n) struct semaphore name = __SEMAPHORE_INITIALIZER(name, n)

/*
 * Counting semaphore. Waiters are served FIFO. A semaphore not set up by
 * sema_init() or DEFINE_SEMAPHORE, or a NULL one, is a reported bug.
 */
void sema_init(struct semaphore *s, int count);
/* Take one unit, sleeping while none is left. Threads only. */
static inline void down(struct semaphore *s);
/*
 * Take one unit, waiting at most timeout ticks: 0 when taken, -EAGAIN if
 * timeout is 0 and none is left (callable from IRQ handlers then),
 * -ETIMEDOUT if the time ran out first. (Linux returns -ETIME here.)
 */
int down_timeout(struct semaphore *s, long timeout);
/*
 * Take one unit if there is one, never sleeping; callable from IRQ
 * handlers. 0 when taken, 1 when none was left: Linux's sense, the
 * opposite of mutex_trylock()'s (as in Linux).
 */
int down_trylock(struct semaphore *s);
/* Give one unit back; callable from IRQ handlers. */
void up(struct semaphore *s);

/*
 * down() is inline where a unit is left: taking it costs no call
 * (semaphore.c does the waiting).
 */
void __down(struct semaphore *s, unsigned long flags);

static inline void down(struct semaphore *s)
{
	unsigned long flags;

	might_sleep_timed(1, "down");
	flags = arch_local_irq_save_svc();   /* threads only: down() may sleep */
	if (__builtin_expect(!s || s->magic != SEMA_MAGIC, 0))
		bad_handle(s, "semaphore", "down");
	if (__builtin_expect(s->count <= 0, 0)) {
		__down(s, flags);
		return;
	}
	s->count--;
	arch_local_irq_restore(flags);
}

#endif
