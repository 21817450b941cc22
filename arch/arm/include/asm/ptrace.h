/* The register frame an exception entry saves (layout shared with entry.S). */
#ifndef ASM_PTRACE_H
#define ASM_PTRACE_H

#define MODE_USR        0x10
#define MODE_FIQ        0x11
#define MODE_IRQ        0x12
#define MODE_SVC        0x13
#define MODE_ABT        0x17
#define MODE_UND        0x1b
#define MODE_SYS        0x1f
#define MODE_MASK       0x1f
#define PSR_F_BIT       0x40
#define PSR_I_BIT       0x80

#ifndef __ASSEMBLER__
#include <stdint.h>

struct pt_regs {
	uint32_t r[13];
	uint32_t sp;
	uint32_t lr;
	uint32_t pc;
	uint32_t cpsr;
	uint32_t pad;
};
#endif

#define S_FRAME_SIZE    72
#define S_SP            52
#define S_LR            56
#define S_PC            60
#define S_PSR           64

#endif
