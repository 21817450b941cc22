/*
 * Message queues (see lokal/msgqueue.h). Interrupts off is the lock. A
 * waiter is never woken to retry: the thread that unblocks it also does
 * its transfer, in the same section, so a time-out racing with it cannot
 * lose or duplicate a message (the tick only ends waits still BLOCKED).
 *
 * That transfer runs in the waker's context (another thread, or an IRQ
 * handler), so a waiter's buffer must mean the same memory there. A
 * kmap_local address does not: it names the mapping context's own slot
 * (Linux's rule: a local map is valid only in the context that made it).
 * A thread about to wait with such a buffer therefore waits with a copy
 * instead, on its own stack (or the heap, for a large message): a sender
 * copies its message there before it waits, a receiver copies the message
 * out after it wakes, both in their own context. The hand-over itself, and
 * with it the order and the priorities, is unchanged.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <lokal/msgqueue.h>
#include <lokal/wait-internal.h>
#include <lokal/highmem-internal.h>
#include <lokal/timeout.h>
#include <lokal/preempt.h>
#include <lokal/bug.h>
#include <asm/irqflags.h>

struct chunk {
	uint32_t w[4];
};
_Static_assert(sizeof(struct chunk) == MSGQ_CHUNK_BYTES, "DEFINE_MSGQ computes chunks with MSGQ_CHUNK_BYTES");

/*
 * Whole words inline, 16 bytes at a time (a load-multiple and a
 * store-multiple), anything else by memcpy.
 */
static inline void msg_copy(void *dst, const void *src, unsigned int size)
{
	if (__builtin_expect((((uintptr_t)dst | (uintptr_t)src | size) & 3) == 0, 1)) {
		struct chunk *d = dst;
		const struct chunk *s = src;
		uint32_t *dw;
		const uint32_t *sw;

		for (; size >= sizeof(*d); size -= sizeof(*d))
			*d++ = *s++;
		dw = (uint32_t *)d;
		sw = (const uint32_t *)s;
		for (; size; size -= 4) {
			__asm__("" : "+r"(dw));        /* a word loop, not a memcpy call */
			*dw++ = *sw++;
		}
	} else {
		memcpy(dst, src, size);
	}
}

/* The first waiter of wq, unlinked, or NULL. */
static inline struct thread *take_waiter(struct wait_queue *wq)
{
	struct list_head *first = wq->waiters.next;

	if (__builtin_expect(first == &wq->waiters, 1))
		return NULL;
	wq->waiters.next = first->next;
	first->next->prev = &wq->waiters;
	return list_entry(first, struct thread, node);
}

static void bad_message(const char *call, struct msgqueue *q)
{
	panic("%s(%p) in thread '%s': NULL message buffer", call, (void *)q, current->name);
}

unsigned int msgq_init(struct msgqueue *q, void *buf, size_t size, size_t msg_size)
{
	size_t capacity = msg_size ? size / msg_size : 0;

	if (q && kmap_local_addr(buf))
		panic("msgq_init(%p, %p) in thread '%s': the ring is a kmap_local address, valid "
		      "only in the thread that mapped it; every sender and receiver uses the ring "
		      "(give it lowmem or a kmap() address)", (void *)q, buf, current->name);
	if (!q || !buf || msg_size == 0 || capacity == 0 || size != (unsigned int)size)
		panic("msgq_init(%p, %p, %lu, %lu) in thread '%s': %s", (void *)q, buf,
		      (unsigned long)size, (unsigned long)msg_size, current->name,
		      !q ? "NULL queue" : !buf ? "NULL ring" : msg_size == 0 ? "message size 0" :
		      capacity == 0 ? "ring smaller than one message" : "ring over 4 GiB");
	q->msg_size = (unsigned int)msg_size;
	q->chunks = ((uintptr_t)buf & 3) == 0 && msg_size % sizeof(struct chunk) == 0 ?
		    (unsigned int)(msg_size / sizeof(struct chunk)) : 0;
	q->capacity = (unsigned int)capacity;
	q->count = 0;
	q->buf = q->head = q->tail = buf;
	q->end = q->buf + msg_size * capacity;
	init_waitqueue(&q->receivers);
	init_waitqueue(&q->senders);
	q->magic = MSGQ_MAGIC;
	return (unsigned int)capacity;
}

static inline void ring_put(struct msgqueue *q, const void *msg)
{
	char *tail = q->tail;

	msg_copy(tail, msg, q->msg_size);
	tail += q->msg_size;
	q->tail = tail == q->end ? q->buf : tail;
	q->count++;
}

/* Interrupts off and the arguments checked; returns the flags to restore. */
static inline unsigned long enter(struct msgqueue *q, const void *msg, long timeout,
				  const char *call)
{
	unsigned long flags;

	might_sleep_timed(timeout, call);
	flags = arch_local_irq_save();
	if (__builtin_expect(!q || q->magic != MSGQ_MAGIC, 0))
		bad_handle(q, "message queue", call);
	if (__builtin_expect(!msg, 0))
		bad_message(call, q);
	return flags;
}

/* Nothing to do now: fail, or wait with buf for the thread that will do the transfer. */
static int wait(struct wait_queue *wq, void *buf, long timeout, unsigned long flags)
{
	int ret = -EAGAIN;

	if (timeout) {
		current->wait_data = buf;
		ret = sleep_on_deadline(wq, timeout_deadline(timeout), true);
	}
	arch_local_irq_restore(flags);
	return ret;
}

/* Messages up to this size wait on the waiting thread's stack; larger ones on the heap. */
#define BOUNCE_ON_STACK 64

static unsigned int bounced_size(struct msgqueue *q, const char *call)
{
	if (!q || q->magic != MSGQ_MAGIC)
		bad_handle(q, "message queue", call);
	return q->msg_size;
}

/* A thread that may wait with a local-map message: it waits with a copy. */
static int __attribute__((noinline, cold)) send_bounced(struct msgqueue *q, const void *msg,
							long timeout)
{
	char stack[BOUNCE_ON_STACK];
	unsigned int size = bounced_size(q, "msgq_send");
	void *copy = size <= sizeof(stack) ? stack : malloc(size);
	int ret;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, msg, size);                /* in the sender's own context */
	ret = msgq_send(q, copy, timeout);
	if (copy != stack)
		free(copy);
	return ret;
}

/* A thread that may wait with a local-map buffer: the message is handed to a copy. */
static int __attribute__((noinline, cold)) receive_bounced(struct msgqueue *q, void *msg,
							   long timeout)
{
	char stack[BOUNCE_ON_STACK];
	unsigned int size = bounced_size(q, "msgq_receive");
	void *copy = size <= sizeof(stack) ? stack : malloc(size);
	int ret;

	if (!copy)
		return -ENOMEM;
	ret = msgq_receive(q, copy, timeout);
	if (ret == 0)
		memcpy(msg, copy, size);        /* in the receiver's own context, woken */
	if (copy != stack)
		free(copy);
	return ret;
}

/* Could this call leave msg for another context to copy through? Only a thread's waiting call can. */
static inline bool needs_bounce(const void *msg, long timeout)
{
	return __builtin_expect(timeout != 0 && kmap_local_addr(msg), 0) && !in_irq();
}

/* Every case of a send, the waits and hand-overs included. */
static int __attribute__((noinline)) msgq_send_slow(struct msgqueue *q, const void *msg, long timeout)
{
	unsigned long flags;
	struct thread *r;

	if (needs_bounce(msg, timeout))
		return send_bounced(q, msg, timeout);
	flags = enter(q, msg, timeout, "msgq_send");
	r = take_waiter(&q->receivers);         /* one waits only while the ring is empty */

	if (__builtin_expect(r != NULL, 0)) {
		msg_copy(r->wait_data, msg, q->msg_size);
		wake_up_thread(r);
		arch_local_irq_restore(flags);
		preempt_check_resched();
		return 0;
	}
	if (__builtin_expect(q->count < q->capacity, 1)) {
		ring_put(q, msg);
		arch_local_irq_restore(flags);
		return 0;
	}
	return wait(&q->senders, (void *)msg, timeout, flags);
}

/* Every case of a receive, the waits and hand-overs included. */
static int __attribute__((noinline)) msgq_receive_slow(struct msgqueue *q, void *msg, long timeout)
{
	unsigned long flags;

	if (needs_bounce(msg, timeout))
		return receive_bounced(q, msg, timeout);
	flags = enter(q, msg, timeout, "msgq_receive");

	if (__builtin_expect(q->count != 0, 1)) {
		char *head = q->head;
		struct thread *s;

		msg_copy(msg, head, q->msg_size);
		head += q->msg_size;
		q->head = head == q->end ? q->buf : head;
		q->count--;
		s = take_waiter(&q->senders);   /* one waits only while the ring is full */
		if (__builtin_expect(s != NULL, 0)) {
			ring_put(q, s->wait_data);
			wake_up_thread(s);
			arch_local_irq_restore(flags);
			preempt_check_resched();
			return 0;
		}
		arch_local_irq_restore(flags);
		return 0;
	}
	return wait(&q->receivers, msg, timeout, flags);
}

/*
 * The common cases, kept short: a queue of whole 16-byte chunks over a
 * word-aligned ring (q->chunks), a word-aligned message, and nothing to
 * wait for or hand over (room in the ring and no receiver waiting; a
 * message in a ring that is not full). The message is then copied a
 * chunk at a time (a load-multiple and a store-multiple) in the caller's
 * own context, so a kmap_local message needs no bounce. Anything else,
 * misuse included, goes to the slow path, which checks everything.
 */
static inline bool fast_ok(struct msgqueue *q, const void *msg)
{
	return q && q->magic == MSGQ_MAGIC && q->chunks && msg && ((uintptr_t)msg & 3) == 0;
}

int msgq_send(struct msgqueue *q, const void *msg, long timeout)
{
	unsigned long flags;

	might_sleep_timed(timeout, __func__);
	flags = arch_local_irq_save_svc();     /* threads and IRQ handlers */
	if (__builtin_expect(fast_ok(q, msg) && q->count < q->capacity &&
			     list_empty(&q->receivers.waiters), 1)) {
		struct chunk *d = (struct chunk *)q->tail;
		const struct chunk *src = msg;
		unsigned int n = q->chunks;

		*d++ = *src++;
		while (__builtin_expect(--n != 0, 0))
			*d++ = *src++;
		q->tail = (char *)d == q->end ? q->buf : (char *)d;
		q->count++;
		arch_local_irq_restore(flags);
		return 0;
	}
	arch_local_irq_restore(flags);
	return msgq_send_slow(q, msg, timeout);
}

int msgq_receive(struct msgqueue *q, void *msg, long timeout)
{
	unsigned long flags;

	might_sleep_timed(timeout, __func__);
	flags = arch_local_irq_save_svc();     /* threads and IRQ handlers */
	/*
	 * A sender waits only while the ring is full (a receive that makes
	 * room moves a waiting sender's message in at once), so a ring that
	 * is not full has none to hand over to.
	 */
	if (__builtin_expect(fast_ok(q, msg) && q->count != 0 && q->count < q->capacity, 1)) {
		struct chunk *d = msg;
		const struct chunk *src = (const struct chunk *)q->head;
		unsigned int n = q->chunks;

		*d++ = *src++;
		while (__builtin_expect(--n != 0, 0))
			*d++ = *src++;
		q->head = (char *)src == q->end ? q->buf : (char *)src;
		q->count--;
		arch_local_irq_restore(flags);
		return 0;
	}
	arch_local_irq_restore(flags);
	return msgq_receive_slow(q, msg, timeout);
}

unsigned int msgq_count(struct msgqueue *q)
{
	check_handle(q, MSGQ_MAGIC, "message queue");
	return q->count;
}
