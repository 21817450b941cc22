/* firmware/lib on the host: ring buffer and CRC-32C. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <lokal/ringbuf.h>
#include <lokal/crc32c.h>

static void ringbuf_is_fifo(void **state)
{
	static struct ringbuf rb;

	(void)state;
	assert_int_equal(ringbuf_get(&rb), -1);
	for (int i = 0; i < 10; i++)
		assert_true(ringbuf_put(&rb, (char)('a' + i)));
	assert_int_equal(ringbuf_count(&rb), 10);
	for (int i = 0; i < 10; i++)
		assert_int_equal(ringbuf_get(&rb), 'a' + i);
	assert_int_equal(ringbuf_get(&rb), -1);
}

static void ringbuf_full_drops_and_counts(void **state)
{
	static struct ringbuf rb;

	(void)state;
	for (int i = 0; i < RINGBUF_SIZE; i++)
		assert_true(ringbuf_put(&rb, (char)i));
	assert_false(ringbuf_put(&rb, 'x'));
	assert_int_equal(rb.dropped, 1);
	assert_int_equal(ringbuf_get(&rb), 0);     /* oldest byte survives */
	assert_true(ringbuf_put(&rb, 'y'));
	assert_int_equal(ringbuf_count(&rb), RINGBUF_SIZE);
}

static void ringbuf_indices_wrap_at_2_32(void **state)
{
	static struct ringbuf rb;

	(void)state;
	rb.head = rb.tail = 0xfffffffeu;
	for (int i = 0; i < 5; i++)
		assert_true(ringbuf_put(&rb, (char)('0' + i)));
	for (int i = 0; i < 5; i++)
		assert_int_equal(ringbuf_get(&rb), '0' + i);
	assert_int_equal(ringbuf_count(&rb), 0);
}

/* A batch keeps order with single puts, wraps, and drops only what does not fit. */
static void ringbuf_put_many_keeps_what_fits(void **state)
{
	static struct ringbuf rb;
	char buf[40];

	(void)state;
	for (unsigned int i = 0; i < sizeof(buf); i++)
		buf[i] = (char)('A' + i % 26);
	rb.head = rb.tail = 0xfffffff0u;        /* the batch wraps the indices and the array */
	assert_true(ringbuf_put(&rb, 'x'));
	assert_int_equal(ringbuf_put_many(&rb, buf, 3), 3);
	assert_int_equal(ringbuf_get(&rb), 'x');
	for (int i = 0; i < 3; i++)
		assert_int_equal(ringbuf_get(&rb), 'A' + i);
	for (int i = 0; i < RINGBUF_SIZE - 10; i++)
		assert_true(ringbuf_put(&rb, 'z'));
	assert_int_equal(ringbuf_put_many(&rb, buf, sizeof(buf)), 10);
	assert_int_equal(rb.dropped, sizeof(buf) - 10);
	assert_int_equal(ringbuf_count(&rb), RINGBUF_SIZE);
	for (int i = 0; i < RINGBUF_SIZE - 10; i++)
		assert_int_equal(ringbuf_get(&rb), 'z');
	for (int i = 0; i < 10; i++)
		assert_int_equal(ringbuf_get(&rb), 'A' + i);
	assert_int_equal(ringbuf_put_many(&rb, buf, 0), 0);
	assert_int_equal(ringbuf_get(&rb), -1);
}

static void ringbuf_bytes_are_unsigned(void **state)
{
	static struct ringbuf rb;

	(void)state;
	ringbuf_put(&rb, (char)0xff);
	assert_int_equal(ringbuf_get(&rb), 0xff);  /* not -1: that means empty */
}

static void crc32c_known_answers(void **state)
{
	static const unsigned char zeros[32], ones[32] = {
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };

	(void)state;
	/* RFC 3720 (iSCSI) B.4 test vectors, and the classic check value. */
	assert_int_equal(crc32c(0, "123456789", 9), 0xe3069283);
	assert_int_equal(crc32c(0, zeros, 32), 0x8a9136aa);
	assert_int_equal(crc32c(0, ones, 32), 0x62a8ab43);
	assert_int_equal(crc32c(0, "", 0), 0);
}

static void crc32c_chains(void **state)
{
	(void)state;
	assert_int_equal(crc32c(crc32c(0, "1234", 4), "56789", 5), crc32c(0, "123456789", 9));
}

/* The definition, a bit at a time: what the table-driven code must equal. */
static uint32_t crc32c_bitwise(const unsigned char *p, size_t len)
{
	uint32_t c = ~0u;

	while (len--) {
		c ^= *p++;
		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0x82f63b78u & -(c & 1));
	}
	return ~c;
}

/* The word loop meets unaligned heads and short tails at every offset. */
static void crc32c_every_alignment_and_length(void **state)
{
	static unsigned char buf[80];

	(void)state;
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = (unsigned char)(i * 151u + 7u);
	for (size_t off = 0; off < 4; off++)
		for (size_t len = 0; off + len <= sizeof(buf); len++)
			assert_int_equal(crc32c(0, buf + off, len), crc32c_bitwise(buf + off, len));
}

int main(void)
{
	static const struct CMUnitTest tests[] = {
		cmocka_unit_test(ringbuf_is_fifo),
		cmocka_unit_test(ringbuf_full_drops_and_counts),
		cmocka_unit_test(ringbuf_indices_wrap_at_2_32),
		cmocka_unit_test(ringbuf_put_many_keeps_what_fits),
		cmocka_unit_test(ringbuf_bytes_are_unsigned),
		cmocka_unit_test(crc32c_known_answers),
		cmocka_unit_test(crc32c_chains),
		cmocka_unit_test(crc32c_every_alignment_and_length),
	};

	return cmocka_run_group_tests_name("lib", tests, NULL, NULL);
}
