/* Boot facts: MMU and caches on, UART input. (The tick rate: test_tick.c, under -icount.) */
#include <string.h>
#include <lokal/thread.h>
#include <lokal/platform.h>
#include <asm/cp15.h>
#include <asm/memory.h>
#include "ktest.h"

static void mmu_icache_dcache_enabled(void)
{
	uint32_t cr = get_cr();

	KT_ASSERT(cr & CR_M);
	KT_ASSERT(cr & CR_C);
	KT_ASSERT(cr & CR_I);
	KT_ASSERT(cr & CR_V);
}

static void lowmem_is_identity_mapped(void)
{
	static volatile uint32_t probe = 0x1badcafe;

	/* Same word through its VA and through __va(__pa()) must agree. */
	KT_ASSERT_EQ(*(volatile uint32_t *)__va(__pa((void *)&probe)), 0x1badcafe);
}

static void uart_input_arrives_by_interrupt(void)
{
	/* The runner types this into QEMU's serial port. */
	static const char expect[] = "lokal-rx\n";
	char got[sizeof(expect)] = { 0 };
	unsigned int n = 0;
	int waited = 0;

	while (n < sizeof(expect) - 1 && waited < 1000) {
		int c = console_getc();

		if (c < 0) {
			sleep_ms(10);
			waited++;
			continue;
		}
		if (c == '\r')
			c = '\n';
		got[n++] = (char)c;
	}
	if (strcmp(got, expect) != 0)
		ktest_fail(__FILE__, __LINE__, "received \"%s\"", got);
}

KTEST_MAIN(KTEST(mmu_icache_dcache_enabled), KTEST(lowmem_is_identity_mapped),
	   KTEST(uart_input_arrives_by_interrupt))
