/* Sleeping locks for threads: mutex (with owner) and counting semaphore. */
#ifndef LOKAL_MUTEX_H
#define LOKAL_MUTEX_H

#include <stdbool.h>
#include <lokal/wait.h>

struct thread;

/*
 * Priority inheritance: while a thread waits for a mutex, the owner runs at
 * least at the waiter's priority (through chains of mutexes too), so a
 * middle-priority thread cannot hold up a high-priority one indefinitely by
 * starving the low-priority owner. The mutex goes to its most urgent waiter.
 */
struct mutex {
	struct thread *owner;
	struct wait_queue waiters;
	struct list_head held;          /* on owner->held_mutexes */
};

#define MUTEX_INIT(name) { NULL, WAIT_QUEUE_INIT((name).waiters), LIST_HEAD_INIT((name).held) }

void mutex_init(struct mutex *m);
/* Sleep until m is free, then own it. Locking a mutex you own is a reported bug. */
void mutex_lock(struct mutex *m);
bool mutex_trylock(struct mutex *m);
/* Release m; only the owner may. The most urgent waiter (FIFO among equals) gets it next. */
void mutex_unlock(struct mutex *m);

struct semaphore {
	int count;
	struct wait_queue waiters;
};

void sema_init(struct semaphore *s, int count);
/* Take one unit, sleeping while none is left. */
void down(struct semaphore *s);
bool down_trylock(struct semaphore *s);
/* Give one unit back; callable from IRQ handlers. */
void up(struct semaphore *s);

#endif
