/*
 * ARM9EJ-S instruction timings beyond one cycle (see pipeline.h). Each
 * figure says where it comes from: "TRM" is ARM DDI 0222B Table 8.2;
 * "assumed" marks a figure that table was not checked for, taken from
 * the same core family's usual timings.
 */
#include "cpu/pipeline.h"

#define RD(i)	(((i) >> 12) & 15u)
#define RN(i)	(((i) >> 16) & 15u)
#define RS(i)	(((i) >> 8) & 15u)
#define RM(i)	((i) & 15u)
#define BIT(i, n)	(((i) >> (n)) & 1u)

static bool is_mul(uint32_t i)      { return (i & 0x0fc000f0u) == 0x00000090u; }
static bool is_mull(uint32_t i)     { return (i & 0x0f8000f0u) == 0x00800090u; }
static bool is_swp(uint32_t i)      { return (i & 0x0fb00ff0u) == 0x01000090u; }
static bool is_extra_ls(uint32_t i) { return (i & 0x0e000090u) == 0x00000090u && (i & 0x60u); }
static bool is_bx(uint32_t i)       { return (i & 0x0fffffd0u) == 0x012fff10u; }  /* BX, BLX reg */
/* MRS, MSR, BX, CLZ, the DSP adds and multiplies, BKPT: the opcodes TST..CMN without S. */
static bool is_misc(uint32_t i)     { return (i & 0x0d900000u) == 0x01000000u &&
					     (BIT(i, 25) || !(BIT(i, 7) && BIT(i, 4))); }
static bool is_msr_reg(uint32_t i)  { return (i & 0x0fb0fff0u) == 0x0120f000u; }
static bool is_dp(uint32_t i)       { return (i & 0x0c000000u) == 0 && !is_misc(i) &&
					     (BIT(i, 25) || !(BIT(i, 7) && BIT(i, 4))); }
static bool is_ls(uint32_t i)       { return (i & 0x0c000000u) == 0x04000000u; }
static bool is_lsm(uint32_t i)      { return (i & 0x0e000000u) == 0x08000000u; }
static bool is_b(uint32_t i)        { return (i & 0x0e000000u) == 0x0a000000u; }

static unsigned popcount16(uint32_t i)
{
	return (unsigned)__builtin_popcount(i & 0xffffu);
}

/* Does insn read register r? (Conservative where unsure: a false yes costs one cycle.) */
static bool reads(uint32_t i, unsigned r)
{
	if (i >> 28 == 15)
		return false;
	if (is_mul(i))
		return RM(i) == r || RS(i) == r || (BIT(i, 21) && RD(i) == r);
	if (is_mull(i))
		return RM(i) == r || RS(i) == r || (BIT(i, 21) && (RD(i) == r || RN(i) == r));
	if (is_swp(i))
		return RN(i) == r || RM(i) == r;
	if (is_extra_ls(i)) {
		bool store = !BIT(i, 20) && (i & 0x60u) != 0x40u;      /* STRH, STRD */
		bool dual_store = !BIT(i, 20) && (i & 0x60u) == 0x60u;

		return RN(i) == r || (!BIT(i, 22) && RM(i) == r) ||
		       (store && RD(i) == r) || (dual_store && RD(i) + 1 == r);
	}
	if (is_bx(i) || is_msr_reg(i))
		return RM(i) == r;
	if (is_misc(i))         /* CLZ, the DSP ones: their register fields, conservatively */
		return RM(i) == r || RS(i) == r || RN(i) == r;
	if (is_dp(i)) {
		unsigned op = (i >> 21) & 15u;
		bool uses_rn = op != 13 && op != 15;                    /* not MOV, MVN */

		if (uses_rn && RN(i) == r)
			return true;
		if (BIT(i, 25))
			return false;
		return RM(i) == r || (BIT(i, 4) && RS(i) == r);
	}
	if (is_ls(i))
		return RN(i) == r || (BIT(i, 25) && RM(i) == r) || (!BIT(i, 20) && RD(i) == r);
	if (is_lsm(i))
		return RN(i) == r || (!BIT(i, 20) && BIT(i, r));
	if ((i & 0x0f100010u) == 0x0e000010u)                   /* MCR */
		return RD(i) == r;
	return false;
}

/* Interlock of a load into rd whose result takes `late` cycles more than an ALU's. */
static unsigned load_use(unsigned rd, unsigned late, uint32_t next, uint32_t after)
{
	if (reads(next, rd))
		return late;
	return late > 1 && reads(after, rd) ? late - 1 : 0;
}

unsigned pipe_extra(uint32_t i, uint32_t next, uint32_t after)
{
	if (i >> 28 == 15)
		return 0;                       /* PLD, BLX immediate (a branch: see pipe_is_branch) */
	if (is_mul(i))
		return BIT(i, 20) ? 2 : 1;      /* assumed: MUL/MLA 2 cycles, with S 3 */
	if (is_mull(i))
		return BIT(i, 20) ? 3 : 2;      /* assumed: long multiplies 3, with S 4 */
	if (is_swp(i))
		return 1;                       /* assumed: 2 cycles */
	if (is_extra_ls(i)) {
		unsigned sh = (i >> 5) & 3u;

		if (BIT(i, 20))                 /* LDRH, LDRSB, LDRSH: 2-cycle interlock (TRM) */
			return load_use(RD(i), 2, next, after);
		if (sh == 2)                    /* LDRD: 2 cycles, 3 if the next uses the second word (TRM) */
			return 1 + (reads(next, RD(i) + 1) ? 1u : 0u);
		return sh == 3 ? 1 : 0;         /* STRD 2 (TRM), STRH 1 */
	}
	if (is_misc(i))
		return 0;                       /* BX: pipe_is_branch; MRS, MSR, CLZ assumed 1 */
	if (is_dp(i)) {
		unsigned op = (i >> 21) & 15u;
		bool reg_shift = !BIT(i, 25) && BIT(i, 4);
		bool test = op >= 8 && op <= 11;
		bool arith = op == 2 || op == 3 || op == 4 || op == 5 || op == 6;

		if (RD(i) == 15 && !test)       /* PC written: 3 (arithmetic) or 4 cycles (TRM) */
			return reg_shift || !arith ? 3 : 2;
		return reg_shift ? 1 : 0;       /* register-controlled shift: 2 cycles (TRM) */
	}
	if (is_ls(i)) {
		bool scaled = BIT(i, 25) && (i & 0xff0u);

		if (!BIT(i, 20))
			return scaled ? 1 : 0;  /* STR: 1, scaled offset 2 (TRM) */
		if (RD(i) == 15)
			return scaled ? 5 : 4;  /* LDR pc: 5, scaled 6 (TRM) */
		/* LDRB or a word: 1 or 2 interlock cycles (TRM; an unaligned word counts as a word) */
		return (scaled ? 1u : 0u) + load_use(RD(i), BIT(i, 22) ? 2 : 1, next, after);
	}
	if (is_lsm(i)) {
		unsigned n = popcount16(i);
		unsigned extra = n <= 1 ? 1 : n - 1;    /* 2 cycles for one register, n for n (TRM) */

		if (!BIT(i, 20))
			return extra;
		if (BIT(i, 15))
			return extra + 4;       /* assumed: loading the PC refills like LDR pc */
		/* the last register loaded, used at once: one interlock cycle (TRM) */
		return extra + (n && reads(next, 31u - (unsigned)__builtin_clz(i & 0x7fffu)) ? 1u : 0u);
	}
	if ((i & 0x0f000000u) == 0x0f000000u)
		return 2;                       /* assumed: SWI enters its vector like a taken branch */
	if ((i & 0x0f000010u) == 0x0e000010u)
		return 1;                       /* assumed: MCR/MRC 2 cycles, no busy-wait */
	return 0;
}

bool pipe_is_branch(uint32_t i)
{
	if (i >> 28 == 15)
		return (i & 0x0e000000u) == 0x0a000000u;        /* BLX immediate */
	return is_b(i) || is_bx(i);
}
