/* Table-driven CRC-32C, reflected polynomial 0x82F63B78. */
#include <stdbool.h>
#include <lokal/crc32c.h>

static uint32_t table[256];
static bool table_ready;

static void make_table(void)
{
	for (uint32_t i = 0; i < 256; i++) {
		uint32_t c = i;

		for (int k = 0; k < 8; k++)
			c = (c >> 1) ^ (0x82f63b78u & -(c & 1));
		table[i] = c;
	}
	table_ready = true;
}

uint32_t crc32c(uint32_t crc, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	if (!table_ready)
		make_table();
	crc = ~crc;
	while (len--)
		crc = table[(crc ^ *p++) & 0xff] ^ (crc >> 8);
	return ~crc;
}
