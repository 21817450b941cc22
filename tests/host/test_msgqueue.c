/*
 * Message queues on the real scheduler: FIFO messages, a full and an
 * empty queue blocking or failing as asked, the most urgent waiter served
 * first (FIFO among equals), sends from an IRQ, odd message sizes, and
 * buffers that are kmap_local addresses (valid only in the context that
 * mapped them) on both sides of a hand-over, from threads and an IRQ.
 */
#include <stdio.h>
#include "host_test.h"
#include <lokal/msgqueue.h>
#include <lokal/platform.h>
#include <asm/irqflags.h>

static struct msgqueue q;
static uint32_t ring[8 * 4];
static char order[32];
static int norder;

struct rx {
	char tag;
	uint32_t msg[4];
	int result;
};

static void receiver(void *arg)
{
	struct rx *r = arg;

	r->result = msgq_receive(&q, r->msg, MAX_SCHEDULE_TIMEOUT);
	order[norder++] = r->tag;
}

static void send_word(uint32_t w)
{
	uint32_t m[4] = { w, ~w, w + 1, w + 2 };

	assert_int_equal(msgq_send(&q, m, MAX_SCHEDULE_TIMEOUT), 0);
}

static void messages_leave_in_order(void **state)
{
	uint32_t m[4];

	(void)state;
	msgq_init(&q, ring, 8 * 16, 16);
	for (uint32_t i = 0; i < 8; i++)
		send_word(i);
	assert_int_equal(msgq_count(&q), 8);
	assert_int_equal(msgq_try_send(&q, m), -EAGAIN);        /* full */
	for (uint32_t i = 0; i < 8; i++) {
		assert_int_equal(msgq_receive(&q, m, 0), 0);
		assert_int_equal(m[0], i);
		assert_int_equal(m[1], ~i);
		assert_int_equal(m[3], i + 2);
	}
	assert_int_equal(msgq_try_receive(&q, m), -EAGAIN);     /* empty */
	/* Wrap around the ring several times. */
	send_word(999);
	for (uint32_t i = 0; i < 40; i++) {
		send_word(i);
		assert_int_equal(msgq_receive(&q, m, 0), 0);
		assert_int_equal(m[0], i ? i - 1 : 999);
	}
	assert_int_equal(msgq_count(&q), 1);
}

static void most_urgent_receiver_first(void **state)
{
	struct rx r[4] = { { .tag = 'a' }, { .tag = 'b' }, { .tag = 'C' }, { .tag = 'd' } };
	struct thread *t[4];
	static const int prio[4] = { 1, 1, 3, 2 };

	(void)state;
	norder = 0;
	msgq_init(&q, ring, 2 * 16, 16);
	for (int i = 0; i < 4; i++)
		t[i] = host_spawn("rx", receiver, &r[i], HOST_PRIO_MAIN + prio[i]);
	for (uint32_t i = 0; i < 4; i++)
		send_word(100 + i);
	for (int i = 0; i < 4; i++)
		thread_join(t[i]);
	order[norder] = 0;
	assert_string_equal(order, "Cdab");
	/* Each got the message sent when it was the most urgent waiter. */
	assert_int_equal(r[2].msg[0], 100);
	assert_int_equal(r[3].msg[0], 101);
	assert_int_equal(r[0].msg[0], 102);
	assert_int_equal(r[1].msg[0], 103);
}

struct tx {
	char tag;
	uint32_t word;
	int result;
};

static void sender(void *arg)
{
	struct tx *s = arg;
	uint32_t m[4] = { s->word, 0, 0, 0 };

	s->result = msgq_send(&q, m, MAX_SCHEDULE_TIMEOUT);
	order[norder++] = s->tag;
}

static void full_queue_blocks_senders_most_urgent_first(void **state)
{
	struct tx s[3] = { { 'a', 1, 1 }, { 'B', 2, 1 }, { 'c', 3, 1 } };
	static const int prio[3] = { 1, 2, 1 };
	struct thread *t[3];
	uint32_t m[4];

	(void)state;
	norder = 0;
	msgq_init(&q, ring, 1 * 16, 16);
	send_word(0);
	for (int i = 0; i < 3; i++)
		t[i] = host_spawn("tx", sender, &s[i], HOST_PRIO_MAIN + prio[i]);
	assert_int_equal(norder, 0);                    /* all blocked */
	for (uint32_t want = 0; want < 4; want++) {
		static const uint32_t expect[4] = { 0, 2, 1, 3 };

		assert_int_equal(msgq_receive(&q, m, 0), 0);
		assert_int_equal(m[0], expect[want]);
	}
	for (int i = 0; i < 3; i++) {
		thread_join(t[i]);
		assert_int_equal(s[i].result, 0);
	}
	order[norder] = 0;
	assert_string_equal(order, "Bac");
}

static void send_from_irq_wakes_receiver(void **state)
{
	struct rx r = { .tag = 'r' };
	struct thread *t;
	uint32_t m[4] = { 7, 7, 7, 7 };
	unsigned long flags;

	(void)state;
	msgq_init(&q, ring, 2 * 16, 16);
	t = host_spawn("rx", receiver, &r, HOST_PRIO_MAIN + 1);
	flags = arch_local_irq_save();
	irq_enter();
	assert_int_equal(msgq_try_send(&q, m), 0);
	assert_int_equal(msgq_try_send(&q, m), 0);
	assert_int_equal(msgq_try_send(&q, m), 0);
	assert_int_equal(msgq_try_send(&q, m), -EAGAIN);
	irq_exit();                                     /* the receiver runs here */
	arch_local_irq_restore(flags);
	assert_int_equal(r.result, 0);
	assert_int_equal(r.msg[2], 7);
	thread_join(t);
	assert_int_equal(msgq_count(&q), 2);
}

/* Sizes that are not whole words, and unaligned buffers: copied by memcpy. */
static void odd_sizes_and_alignment(void **state)
{
	static char buf[5 * 7 + 6];
	char in[16], out[16];

	(void)state;
	/* A ring that is not a whole number of messages holds the whole ones. */
	assert_int_equal(msgq_init(&q, buf, sizeof(buf), 7), 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(msgq_send(&q, in, 0), 0);
	assert_int_equal(msgq_send(&q, in, 0), -EAGAIN);
	assert_int_equal(msgq_init(&q, buf, sizeof(buf), 7), 5);
	for (int i = 0; i < 12; i++) {
		for (int k = 0; k < 7; k++)
			in[1 + k] = (char)(i * 16 + k);
		assert_int_equal(msgq_send(&q, in + 1, 0), 0);
		memset(out, 0, sizeof(out));
		assert_int_equal(msgq_receive(&q, out + 3, 0), 0);
		assert_memory_equal(in + 1, out + 3, 7);
		assert_int_equal(out[10], 0);                   /* not a byte more */
	}
}

/*
 * The short path takes whole 16-byte chunks over a word-aligned ring; a
 * two-chunk message, a ring one byte off and a message two bytes off
 * must come out whole and in order all the same (the last two by the
 * full path), across several wraps of the ring.
 */
static void chunked_and_unaligned_rings_keep_every_byte(void **state)
{
	static uint32_t ring32[3 * 8];
	static uint32_t ring_off[3 * 4 + 1];
	uint32_t in[9], out[9];

	(void)state;
	msgq_init(&q, ring32, 3 * 32, 32);
	for (uint32_t i = 0; i < 10; i++) {
		for (int k = 0; k < 8; k++)
			in[k] = i * 100 + (uint32_t)k;
		assert_int_equal(msgq_send(&q, in, 0), 0);
		if (i == 0)
			continue;               /* one message ahead of the receives */
		memset(out, 0, sizeof(out));
		assert_int_equal(msgq_receive(&q, out, 0), 0);
		for (int k = 0; k < 8; k++)
			assert_int_equal(out[k], (i - 1) * 100 + (uint32_t)k);
		assert_int_equal(out[8], 0);                    /* not a word more */
	}

	msgq_init(&q, (char *)ring_off + 1, 3 * 16, 16);
	for (uint32_t i = 0; i < 7; i++) {
		char *unaligned_in = (char *)in + 2, *unaligned_out = (char *)out + 2;

		for (int k = 0; k < 16; k++)
			unaligned_in[k] = (char)(i * 16 + (uint32_t)k);
		assert_int_equal(msgq_send(&q, unaligned_in, 0), 0);
		memset(out, 0, sizeof(out));
		assert_int_equal(msgq_receive(&q, i & 1 ? unaligned_out : (char *)out, 0), 0);
		assert_memory_equal(i & 1 ? unaligned_out : (char *)out, unaligned_in, 16);
	}
	assert_int_equal(msgq_count(&q), 0);
}

/* ---- kmap_local buffers: an address that means the mapper's own slot -------- */

static struct page *rx_page, *tx_page, *main_page;

static void fill_page(struct page *p, uint32_t w)
{
	uint32_t *va = kmap_local_page(p);

	for (int i = 0; i < 4; i++)
		va[i] = w + (uint32_t)i;
	kunmap_local(va);
}

static uint32_t page_word(struct page *p, int i)
{
	uint32_t *va = kmap_local_page(p), w = va[i];

	kunmap_local(va);
	return w;
}

/* Waits for one message with its buffer in a local map of rx_page. */
static void local_receiver(void *arg)
{
	struct rx *r = arg;
	uint32_t *buf = kmap_local_page(rx_page);

	r->result = msgq_receive(&q, buf, MAX_SCHEDULE_TIMEOUT);
	memcpy(r->msg, buf, sizeof(r->msg));
	kunmap_local(buf);
}

/* Sends one message from a local map of tx_page, waiting for room. */
static void local_sender(void *arg)
{
	struct tx *s = arg;
	uint32_t *msg = kmap_local_page(tx_page);

	s->result = msgq_send(&q, msg, MAX_SCHEDULE_TIMEOUT);
	kunmap_local(msg);
}

/* A waiting receiver's local-map buffer gets the message a thread sends from its own local map. */
static void local_map_receiver_gets_the_message(void **state)
{
	struct rx r = { .tag = 'r', .result = 1 };
	struct thread *t;
	uint32_t *msg;

	(void)state;
	rx_page = host_alloc(ZONE_HIGHMEM);
	main_page = host_alloc(ZONE_HIGHMEM);
	fill_page(rx_page, 0);
	fill_page(main_page, 0x5e00);
	msgq_init(&q, ring, 2 * 16, 16);
	t = host_spawn("rx", local_receiver, &r, HOST_PRIO_MAIN + 1);   /* waits */
	msg = kmap_local_page(main_page);
	assert_int_equal(msgq_send(&q, msg, MAX_SCHEDULE_TIMEOUT), 0);
	kunmap_local(msg);
	thread_join(t);
	assert_int_equal(r.result, 0);
	assert_int_equal(r.msg[0], 0x5e00);
	assert_int_equal(r.msg[3], 0x5e03);
	assert_int_equal(page_word(main_page, 0), 0x5e00);      /* the sender's page untouched */
}

/* A waiting sender's local-map message reaches the ring, not the receiver's own page. */
static void local_map_sender_message_is_kept(void **state)
{
	struct tx s = { 's', 0, 1 };
	struct thread *t;
	uint32_t *buf;

	(void)state;
	tx_page = host_alloc(ZONE_HIGHMEM);
	main_page = host_alloc(ZONE_HIGHMEM);
	fill_page(tx_page, 0x7700);
	msgq_init(&q, ring, 1 * 16, 16);
	send_word(1);                                           /* full */
	t = host_spawn("tx", local_sender, &s, HOST_PRIO_MAIN + 1);     /* waits */
	buf = kmap_local_page(main_page);
	memset(buf, 0xee, 16);
	assert_int_equal(msgq_receive(&q, buf, 0), 0);          /* takes 1, moves tx's in */
	assert_int_equal(buf[0], 1);
	memset(buf, 0xee, 16);
	assert_int_equal(msgq_receive(&q, buf, 0), 0);
	assert_int_equal(buf[0], 0x7700);
	assert_int_equal(buf[3], 0x7703);
	kunmap_local(buf);
	thread_join(t);
	assert_int_equal(s.result, 0);
}

/*
 * msgq_try_send() from an IRQ that interrupts a thread holding a local map:
 * the waiting receiver's buffer is its own, not the interrupted thread's page.
 */
static void irq_send_to_local_map_receiver(void **state)
{
	struct rx r = { .tag = 'r', .result = 1 };
	uint32_t m[4] = { 0x1a0, 0x1a1, 0x1a2, 0x1a3 };
	struct thread *t;
	unsigned long flags;
	uint32_t *mine;

	(void)state;
	rx_page = host_alloc(ZONE_HIGHMEM);
	main_page = host_alloc(ZONE_HIGHMEM);
	fill_page(rx_page, 0);
	fill_page(main_page, 0x3300);
	msgq_init(&q, ring, 2 * 16, 16);
	t = host_spawn("rx", local_receiver, &r, HOST_PRIO_MAIN + 1);   /* waits */
	mine = kmap_local_page(main_page);                      /* the slot rx's buffer had */
	flags = arch_local_irq_save();
	irq_enter();
	assert_int_equal(msgq_try_send(&q, m), 0);
	irq_exit();                                             /* the receiver runs here */
	arch_local_irq_restore(flags);
	assert_int_equal(mine[0], 0x3300);                      /* not overwritten */
	assert_int_equal(mine[3], 0x3303);
	kunmap_local(mine);
	thread_join(t);
	assert_int_equal(r.result, 0);
	assert_int_equal(r.msg[0], 0x1a0);
	assert_int_equal(r.msg[3], 0x1a3);
}

/* A message too big to wait on the stack (the copy is on the heap), both ways. */
#define BIG 200
static uint32_t big_ring[2 * BIG / 4];
static uint8_t big_got[BIG];
static int big_result;

static void big_local_receiver(void *arg)
{
	uint8_t *buf = kmap_local_page(rx_page);

	(void)arg;
	big_result = msgq_receive(&q, buf, MAX_SCHEDULE_TIMEOUT);
	memcpy(big_got, buf, BIG);
	kunmap_local(buf);
}

static void big_local_map_messages(void **state)
{
	struct thread *t;
	uint8_t *msg;

	(void)state;
	rx_page = host_alloc(ZONE_HIGHMEM);
	main_page = host_alloc(ZONE_HIGHMEM);
	msgq_init(&q, big_ring, 2 * BIG, BIG);
	t = host_spawn("rx", big_local_receiver, NULL, HOST_PRIO_MAIN + 1);      /* waits */
	msg = kmap_local_page(main_page);
	for (int i = 0; i < BIG; i++)
		msg[i] = (uint8_t)(i * 7 + 1);
	assert_int_equal(msgq_send(&q, msg, MAX_SCHEDULE_TIMEOUT), 0);
	kunmap_local(msg);
	thread_join(t);
	assert_int_equal(big_result, 0);
	for (int i = 0; i < BIG; i++)
		assert_int_equal(big_got[i], (uint8_t)(i * 7 + 1));
}

/* A ring every sender and receiver uses cannot be one thread's local map. */
static void init_local_ring(void *arg)
{
	void *buf = kmap_local_page(host_alloc(ZONE_HIGHMEM));

	(void)arg;
	msgq_init(&q, buf, 2 * 16, 16);
}

static void local_map_ring_is_refused(void **state)
{
	(void)state;
	EXPECT_PANIC(init_local_ring, NULL, "msgq_init(", "thread 'main'", "kmap_local address");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(messages_leave_in_order),
		HOST_TEST(most_urgent_receiver_first),
		HOST_TEST(full_queue_blocks_senders_most_urgent_first),
		HOST_TEST(send_from_irq_wakes_receiver),
		HOST_TEST(odd_sizes_and_alignment),
		HOST_TEST(chunked_and_unaligned_rings_keep_every_byte),
		HOST_TEST(local_map_receiver_gets_the_message),
		HOST_TEST(local_map_sender_message_is_kept),
		HOST_TEST(irq_send_to_local_map_receiver),
		HOST_TEST(big_local_map_messages),
		HOST_TEST(local_map_ring_is_refused),
	};

	return host_run_groups("msgqueue", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
