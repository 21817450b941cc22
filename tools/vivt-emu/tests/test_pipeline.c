/*
 * Unit tests of pipeline.c: the cycles ARM9EJ-S instructions take beyond
 * one, on instruction words arm-none-eabi-as produced (-mcpu=arm926ej-s),
 * each named by its disassembly. TAP on stdout (tests/lib/tap.h).
 */
#include "tap.h"
#include "../cpu/pipeline.h"

#define NOP	0xe1a0c00cu	/* mov ip, ip: reads no register the rows load */

struct row {
	uint32_t insn, next, after;
	unsigned extra;
	const char *what;
};

static const struct row rows[] = {
	{ 0xe5910000, 0xe2802001, NOP, 1, "ldr r0,[r1]; add r2,r0,#1: one load-use cycle" },
	{ 0xe5910000, 0xe2832001, NOP, 0, "ldr r0,[r1]; add r2,r3,#1: no interlock" },
	{ 0xe5d10000, 0xe2802001, NOP, 2, "ldrb r0,[r1]; add r2,r0,#1: two load-use cycles" },
	{ 0xe5d10000, 0xe2832001, 0xe2802001, 1, "ldrb r0,[r1]; add r2,r3,#1; add r2,r0,#1: one" },
	{ 0xe1d100b0, 0xe2802001, NOP, 2, "ldrh r0,[r1]; add r2,r0,#1: two load-use cycles" },
	{ 0xe5901000, 0xe5821000, NOP, 1, "ldr r1,[r0]; str r1,[r2]: the store reads r1" },
	{ 0xe7910102, NOP, NOP, 1, "ldr r0,[r1,r2,lsl #2]: scaled offset, 2 cycles" },
	{ 0xe7810102, NOP, NOP, 1, "str r0,[r1,r2,lsl #2]: scaled offset, 2 cycles" },
	{ 0xe49df004, NOP, NOP, 4, "ldr pc,[sp],#4: 5 cycles" },
	{ 0xe92d4ff0, NOP, NOP, 8, "push {r4-r11,lr}: 9 cycles" },
	{ 0xe8bd8ff0, NOP, NOP, 12, "pop {r4-r11,pc}: 9 and the refill" },
	{ 0xe8900006, 0xe2823001, NOP, 2, "ldm r0,{r1,r2}; add r3,r2,#1: 2 cycles and one interlock" },
	{ 0xe8800002, NOP, NOP, 1, "stm r0,{r1}: 2 cycles" },
	{ 0xe1a0f00e, NOP, NOP, 3, "mov pc,lr: 4 cycles" },
	{ 0xe08ff000, NOP, NOP, 2, "add pc,pc,r0: 3 cycles" },
	{ 0xe0810312, NOP, NOP, 1, "add r0,r1,r2,lsl r3: register-controlled shift, 2 cycles" },
	{ 0xe2832001, NOP, NOP, 0, "add r2,r3,#1: 1 cycle" },
	{ 0xe0000291, NOP, NOP, 1, "mul r0,r1,r2: 2 cycles" },
	{ 0xe1020091, NOP, NOP, 1, "swp r0,r1,[r2]: 2 cycles" },
	{ 0xe10f0000, NOP, NOP, 0, "mrs r0,cpsr: 1 cycle" },
	{ 0xe121f000, NOP, NOP, 0, "msr cpsr_c,r0: 1 cycle" },
	{ 0xe16f0f11, NOP, NOP, 0, "clz r0,r1: 1 cycle" },
	{ 0xee070f9a, NOP, NOP, 1, "mcr p15,0,r0,c7,c10,4: 2 cycles" },
	{ 0xe12fff1e, NOP, NOP, 0, "bx lr: its cost is the taken branch's" },
};

static const struct { uint32_t insn; bool branch; const char *what; } branches[] = {
	{ 0xeafffffe, true, "b" },
	{ 0xebfffffe, true, "bl" },
	{ 0xe12fff1e, true, "bx lr" },
	{ 0xe1a0f00e, false, "mov pc,lr (its refill is in its own cost)" },
	{ 0xe5910000, false, "ldr r0,[r1]" },
};

int main(void)
{
	unsigned nrows = sizeof(rows) / sizeof(rows[0]);
	unsigned nbr = sizeof(branches) / sizeof(branches[0]);

	tap_plan((int)(nrows + nbr));
	for (unsigned k = 0; k < nrows; k++) {
		unsigned got = pipe_extra(rows[k].insn, rows[k].next, rows[k].after);

		if (!tap_ok(got == rows[k].extra, "pipeline: %s", rows[k].what))
			tap_diag("extra cycles %u, expected %u", got, rows[k].extra);
	}
	for (unsigned k = 0; k < nbr; k++)
		tap_ok(pipe_is_branch(branches[k].insn) == branches[k].branch,
		       "pipeline: %s %s a branch", branches[k].what, branches[k].branch ? "is" : "is not");
	return tap_done();
}
