/*
 * A porting layer in the style of the Thread-Metric suite's: each service
 * the event shapes use is one ordinary, out-of-line call that takes the
 * object by its small number and returns a status, as an application
 * written against the suite's interface would call Lokal. Written for
 * Lokal from the suite's public description (its API names are kept so
 * that a reader can match them); no code of the suite's is in it.
 *
 * Semantics follow the suite's reference port: threads are created
 * stopped and without time slicing, a semaphore starts with one unit,
 * a queue carries 16-byte messages, a pool hands out 128-byte blocks, and
 * every get, receive, send and allocate returns at once (TM_ERROR when it
 * cannot be done) instead of waiting.
 */
#ifndef BENCH_TM_PORT_H
#define BENCH_TM_PORT_H

#define TM_SUCCESS      0
#define TM_ERROR        1

#define TM_MAX_THREADS  6
#define TM_MAX_OBJECTS  1       /* semaphores, queues and pools: one of each */

struct thread;

/*
 * Create thread id stopped (tm_thread_resume() starts it) at the suite's
 * priority prio (1 most urgent .. 31), below the bench's main thread, with
 * time slicing off. May sleep (thread_create_suspended()).
 */
int tm_thread_create(int id, int prio, void (*entry)(void));
/* The Lokal thread behind id, for the harness that stops and joins it. */
struct thread *tm_thread(int id);
/* TM_SUCCESS if id was stopped and now runs; also from IRQ handlers. */
int tm_thread_resume(int id);
/* Stop id (oneself: until resumed). */
int tm_thread_suspend(int id);
/* Let the ready threads of the caller's priority run first. */
void tm_thread_relinquish(void);

/* A semaphore holding one unit. */
int tm_semaphore_create(int id);
/* Take a unit if there is one: TM_ERROR (never a wait) if none. */
int tm_semaphore_get(int id);
/* Give a unit back; also from IRQ handlers. */
int tm_semaphore_put(int id);

/* A queue of 16-byte messages with room for 12 (a 200-byte area). */
int tm_queue_create(int id);
/* Copy 16 bytes in; TM_ERROR if the queue is full. */
int tm_queue_send(int id, unsigned long *message);
/* Copy the oldest 16 bytes out; TM_ERROR if the queue is empty. */
int tm_queue_receive(int id, unsigned long *message);

/* A pool of 128-byte blocks over a 2048-byte area. */
int tm_memory_pool_create(int id);
/* A block in *block, or TM_ERROR if none is free. */
int tm_memory_pool_allocate(int id, unsigned char **block);
/* Give block back. */
int tm_memory_pool_deallocate(int id, unsigned char *block);

#endif
