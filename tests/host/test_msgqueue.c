/*
 * Message queues on the real scheduler: FIFO messages, a full and an
 * empty queue blocking or failing as asked, the most urgent waiter served
 * first (FIFO among equals), sends from an IRQ, odd message sizes.
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
	msgq_init(&q, ring, 16, 8);
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
	msgq_init(&q, ring, 16, 2);
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
	msgq_init(&q, ring, 16, 1);
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
	msgq_init(&q, ring, 16, 2);
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
	static char buf[5 * 7];
	char in[16], out[16];

	(void)state;
	msgq_init(&q, buf, 7, 5);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(messages_leave_in_order),
		HOST_TEST(most_urgent_receiver_first),
		HOST_TEST(full_queue_blocks_senders_most_urgent_first),
		HOST_TEST(send_from_irq_wakes_receiver),
		HOST_TEST(odd_sizes_and_alignment),
	};

	return host_run_groups("msgqueue", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
