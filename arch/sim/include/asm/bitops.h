/* Host: the same bit searches as arch/arm's, in C. */
#ifndef ASM_BITOPS_H
#define ASM_BITOPS_H

#include <stdint.h>

/* The number of leading zero bits of x, 32 for 0. */
static inline unsigned int arch_clz(uint32_t x)
{
	return x ? (unsigned int)__builtin_clz(x) : 32;
}

#endif
