/* CP15 (system control coprocessor) accessors for the ARM926EJ-S. */
#ifndef ASM_CP15_H
#define ASM_CP15_H

#include <stdint.h>

#define CR_M    (1u << 0)       /* MMU */
#define CR_A    (1u << 1)       /* alignment fault checking */
#define CR_C    (1u << 2)       /* D-cache */
#define CR_W    (1u << 3)       /* write buffer */
#define CR_S    (1u << 8)
#define CR_R    (1u << 9)
#define CR_I    (1u << 12)      /* I-cache */
#define CR_V    (1u << 13)      /* high vectors at 0xFFFF0000 */
#define CR_RR   (1u << 14)      /* round-robin replacement */

#define CP15_READ(crn, op1, crm, op2) ({ uint32_t __v; \
	__asm__ volatile("mrc p15, " #op1 ", %0, " #crn ", " #crm ", " #op2 : "=r"(__v)); __v; })
#define CP15_WRITE(crn, op1, crm, op2, val) \
	__asm__ volatile("mcr p15, " #op1 ", %0, " #crn ", " #crm ", " #op2 : : "r"((uint32_t)(val)) : "memory")

static inline uint32_t read_cpuid(void)      { return CP15_READ(c0, 0, c0, 0); }
static inline uint32_t read_cachetype(void)  { return CP15_READ(c0, 0, c0, 1); }
static inline uint32_t get_cr(void)          { return CP15_READ(c1, 0, c0, 0); }
static inline void set_cr(uint32_t v)        { CP15_WRITE(c1, 0, c0, 0, v); }
static inline uint32_t read_dfsr(void)       { return CP15_READ(c5, 0, c0, 0); }
static inline uint32_t read_ifsr(void)       { return CP15_READ(c5, 0, c0, 1); }
static inline uint32_t read_far(void)        { return CP15_READ(c6, 0, c0, 0); }

#endif
