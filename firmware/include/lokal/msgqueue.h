/*
 * Message queues: fixed-size messages copied in and out of a ring whose
 * storage (capacity * msg_size bytes) the caller gives at creation.
 * Messages leave in the order they were sent. Blocked senders and
 * receivers are served most urgent first, FIFO among equal priorities; a
 * receiver that waits gets the next message copied straight into its
 * buffer, and a sender that waits has its message moved into the ring as
 * soon as there is room, so neither can be overtaken once it waits.
 *
 *   DEFINE_MSGQ(q, 16, 8);                   eight 16-byte messages, ring included
 * or, with a ring of the caller's, at run time:
 *   static uint8_t ring[8 * 16];
 *   msgq_init(&q, ring, sizeof(ring), 16);  returns 8, the capacity
 *   msgq_send(&q, msg, MAX_SCHEDULE_TIMEOUT);               producer
 *   if (msgq_receive(&q, msg, msecs_to_jiffies(50)) == -ETIMEDOUT) ...   consumer
 *
 * Buffers: a message or buffer may be a kmap_local address (valid only in
 * the caller's context): a thread that has to wait with one waits with a
 * copy (on its stack up to 64 bytes, on the heap above) and copies in or
 * out itself, so the hand-over order is kept. The ring must be memory
 * every context sees the same (lowmem, static, kmap()): a kmap_local ring
 * is a reported bug, as no copy could help.
 *
 * Results: 0 done; -EAGAIN the queue was full (send) or empty (receive)
 * and timeout was 0; -ETIMEDOUT the time ran out first; -ENOMEM a
 * kmap_local message over 64 bytes found no heap for its copy. Misuse (NULL or
 * uninitialised queue, NULL message, a blocking call from an IRQ handler
 * or with preemption off) is a reported bug naming the thread.
 */
#ifndef LOKAL_MSGQUEUE_H
#define LOKAL_MSGQUEUE_H

#include <stddef.h>
#include <stdint.h>
#include <lokal/wait.h>
#include <lokal/handle.h>

struct msgqueue {
	unsigned int magic;
	unsigned int msg_size;
	unsigned int chunks;            /* msg_size / 16 for a word-aligned ring of whole 16-byte messages, else 0 */
	unsigned int count;             /* messages in the ring */
	char *buf, *end;                /* the ring: capacity * msg_size bytes */
	char *head, *tail;              /* next to receive, next free */
	unsigned int capacity;
	struct wait_queue receivers;    /* by priority; each wait_data: its buffer */
	struct wait_queue senders;      /* by priority; each wait_data: its message */
};

/* Messages copied 16 bytes at a time when the size is a multiple and the ring word-aligned. */
#define MSGQ_CHUNK_BYTES        16

/*
 * A queue of capacity messages of msg_size bytes with its ring, both
 * static at file scope (the ring 8-byte aligned), ready at boot with no
 * msgq_init() call; other files reach it through &name:
 *   DEFINE_MSGQ(requests, sizeof(struct request), 8);
 * The macro says static itself (as Zephyr's K_MSGQ_DEFINE names its ring):
 * do not add it. A zero size or capacity does not compile.
 */
#define DEFINE_MSGQ(name, msg_size, capacity)                                  \
	static uint64_t __msgq_ring_##name[__MSGQ_RING_WORDS(msg_size, capacity)]; \
	static struct msgqueue name = __MSGQ_INIT(name, (char *)__msgq_ring_##name, \
						  msg_size, capacity)
#define __MSGQ_RING_WORDS(size, cap)                                           \
	(((size) * (cap) + 7) / 8 + 0 * sizeof(char[(size) > 0 && (cap) > 0 ? 1 : -1]))
#define __MSGQ_INIT(name, ring, size, cap) {                                   \
	.magic = MSGQ_MAGIC,                                                   \
	.msg_size = (size),                                                    \
	.chunks = (size) % MSGQ_CHUNK_BYTES ? 0 : (size) / MSGQ_CHUNK_BYTES,  \
	.count = 0,                                                            \
	.buf = (ring), .end = (ring) + (size) * (cap),                         \
	.head = (ring), .tail = (ring),                                        \
	.capacity = (cap),                                                     \
	.receivers = WAIT_QUEUE_INIT((name).receivers),                        \
	.senders = WAIT_QUEUE_INIT((name).senders),                            \
}

/*
 * Set q up over a ring of size bytes at buf for messages of msg_size bytes
 * (the arguments in mempool_init()'s order: storage, its size, one
 * element's size). Returns the capacity, size / msg_size messages (at least
 * 1). A NULL q or buf, a zero message size, or a ring smaller than one
 * message is a reported bug. Threads or boot code.
 */
unsigned int msgq_init(struct msgqueue *q, void *buf, size_t size, size_t msg_size);
/* Copy msg (msg_size bytes) in, waiting up to timeout ticks for room. Threads only, unless timeout is 0. */
int msgq_send(struct msgqueue *q, const void *msg, long timeout);
/* Copy the oldest message out to msg, waiting up to timeout ticks for one. Threads only, unless timeout is 0. */
int msgq_receive(struct msgqueue *q, void *msg, long timeout);
/* Never wait; callable from IRQ handlers. */
static inline int msgq_try_send(struct msgqueue *q, const void *msg)
{
	return msgq_send(q, msg, 0);
}
static inline int msgq_try_receive(struct msgqueue *q, void *msg)
{
	return msgq_receive(q, msg, 0);
}
/* Messages waiting now (a snapshot). */
unsigned int msgq_count(struct msgqueue *q);

#endif
