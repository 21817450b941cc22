/* Bit searches the portable code needs defined for every input. */
#ifndef ASM_BITOPS_H
#define ASM_BITOPS_H

#include <stdint.h>

/*
 * The number of leading zero bits of x, 32 for 0: the ARM CLZ
 * instruction's own answer (__builtin_clz(0) is undefined in C, so a
 * caller would need a test the instruction does not). Every switch picks
 * its thread with it (yield_5_peers_ns, events_preemptive in results.json).
 */
static inline unsigned int arch_clz(uint32_t x)
{
	unsigned int n;

	__asm__("clz %0, %1" : "=r"(n) : "r"(x));
	return n;
}

#endif
