/* SPSC byte ring (see lokal/ringbuf.h). Indices run free and wrap at 2^32. */
#include <lokal/ringbuf.h>

_Static_assert((RINGBUF_SIZE & (RINGBUF_SIZE - 1)) == 0, "RINGBUF_SIZE must be a power of two");

unsigned int ringbuf_put_many(struct ringbuf *rb, const char *buf, unsigned int n)
{
	uint32_t head = rb->head;
	unsigned int room = RINGBUF_SIZE - (head - rb->tail), keep = n < room ? n : room;

	for (unsigned int i = 0; i < keep; i++)
		rb->data[(head + i) % RINGBUF_SIZE] = buf[i];
	rb->dropped += n - keep;
	__asm__ volatile("" ::: "memory");      /* data before index */
	rb->head = head + keep;
	return keep;
}

bool ringbuf_put(struct ringbuf *rb, char c)
{
	return ringbuf_put_many(rb, &c, 1) == 1;
}

int ringbuf_get(struct ringbuf *rb)
{
	uint32_t tail = rb->tail;
	int c;

	if (tail == rb->head)
		return -1;
	c = (unsigned char)rb->data[tail % RINGBUF_SIZE];
	__asm__ volatile("" ::: "memory");      /* data before index */
	rb->tail = tail + 1;
	return c;
}

unsigned int ringbuf_count(const struct ringbuf *rb)
{
	return rb->head - rb->tail;
}
