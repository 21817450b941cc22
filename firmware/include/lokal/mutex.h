/* Sleeping locks for threads: mutex (with owner) and counting semaphore. */
#ifndef LOKAL_MUTEX_H
#define LOKAL_MUTEX_H

#include <stdbool.h>
#include <lokal/wait.h>

struct thread;

struct mutex {
	struct thread *owner;
	struct wait_queue waiters;
};

#define MUTEX_INIT(name) { NULL, WAIT_QUEUE_INIT((name).waiters) }

void mutex_init(struct mutex *m);
/* Sleep until m is free, then own it. Locking a mutex you own is a reported bug. */
void mutex_lock(struct mutex *m);
bool mutex_trylock(struct mutex *m);
/* Release m; only the owner may. The longest waiter gets it next. */
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
