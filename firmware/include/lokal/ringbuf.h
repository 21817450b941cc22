/*
 * Single-producer, single-consumer byte ring. Lock-free: the producer only
 * writes head, the consumer only writes tail, so an IRQ handler can fill it
 * while a thread drains it.
 */
#ifndef LOKAL_RINGBUF_H
#define LOKAL_RINGBUF_H

#include <stdbool.h>
#include <stdint.h>

#define RINGBUF_SIZE 256        /* power of two */

struct ringbuf {
	volatile uint32_t head;         /* next write, producer only */
	volatile uint32_t tail;         /* next read, consumer only */
	uint32_t dropped;               /* bytes lost to a full ring */
	char data[RINGBUF_SIZE];
};

/* Append c; returns false (and counts a drop) when the ring is full. */
bool ringbuf_put(struct ringbuf *rb, char c);
/*
 * Append buf[0..n-1], publishing them with one index store; what does not
 * fit is dropped and counted. Returns how many were kept.
 */
unsigned int ringbuf_put_many(struct ringbuf *rb, const char *buf, unsigned int n);
/* Remove the oldest byte; returns -1 when empty. */
int ringbuf_get(struct ringbuf *rb);
unsigned int ringbuf_count(const struct ringbuf *rb);

#endif
