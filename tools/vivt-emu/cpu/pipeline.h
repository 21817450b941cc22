/*
 * The ARM9EJ-S pipeline's cycles beyond one per instruction, so that the
 * bench's cycle estimate shows an instruction saved by a slower one: a
 * multi-cycle LDM/STM, a load whose result the next instruction uses, a
 * taken branch's refill, a write to the PC. The figures are the ARM9EJ-S
 * TRM's (ARM DDI 0222B, chapter 8, Table 8.2) where it gives them; the
 * rest are marked as assumptions in pipeline.c.
 *
 * Costs are static, worked out per instruction word when the image is
 * loaded (no Unicorn here, so tests/test_pipeline.c drives it directly),
 * which leaves three things unmodelled: a conditional instruction is
 * charged as if it ran, an interlock across a taken branch or a block the
 * emulator split is not seen, and the memory system's own stalls are the
 * cache model's (line fills, write-backs, drains), not these.
 */
#ifndef VIVT_EMU_PIPELINE_H
#define VIVT_EMU_PIPELINE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Cycles insn takes beyond one, plus the interlock its result costs when
 * next (and, for a byte or halfword load, after) is the instruction that
 * follows it in memory.
 */
unsigned pipe_extra(uint32_t insn, uint32_t next, uint32_t after);

/* A B, BL, BX or BLX: two more cycles (the refill) when it is taken. */
bool pipe_is_branch(uint32_t insn);

/* The refill cycles a taken branch adds (a taken B costs 3, ARM DDI 0222B). */
#define PIPE_TAKEN_BRANCH	2u

#endif
