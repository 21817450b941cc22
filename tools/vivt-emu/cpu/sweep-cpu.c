/*
 * The sweep's CPU side: a code hook on the swept range counts the visit's
 * instructions and stops Unicorn right before the one an IRQ must land
 * at; the run loop then raises the guest's own software interrupt line
 * there.
 *
 * Why a code hook: Unicorn takes an interrupt only where the run loop
 * stops it, and the block hook runs once per translated block, so an IRQ
 * from the block hook lands only at block starts.  A UC_HOOK_CODE hook
 * runs before each instruction of the range, and uc_emu_stop() from it
 * ends the block before that instruction executes (Unicorn 2 checks the
 * exit request right after the hook): starting again at that address
 * begins a new block there, so any instruction can be a block start.  The
 * registers are compared at the stop and at the restart: had the
 * instruction run, the PC (at least) would differ, and the run fails.
 * The hook covers only the range, so the rest of the image runs at full
 * speed.
 */
#include <stdlib.h>
#include <string.h>
#include "vemu.h"

#define PSR_I		(1u << 7)
#define PSR_MODE_MASK	0x1fu

static int reg_id(unsigned n)
{
	return n < 13 ? UC_ARM_REG_R0 + (int)n : n == 13 ? UC_ARM_REG_SP : n == 14 ? UC_ARM_REG_LR : UC_ARM_REG_PC;
}

static void read_regs(struct vemu *vm, uint32_t regs[17])
{
	for (unsigned n = 0; n < 16; n++)
		regs[n] = cpu_reg(vm, reg_id(n));
	regs[16] = cpu_reg(vm, UC_ARM_REG_CPSR);
}

/*
 * Stop before the instruction at pc.  The block hook counted the whole
 * block; the part from pc on runs again as a block of its own and is
 * counted then, so it comes off now: emulated time stays exact.
 */
static void stop_before(struct vemu *vm, uint32_t pc, enum stop_kind kind)
{
	struct sweep_state *sw = &vm->sweep;

	if (pc >= vm->block_pc && pc - vm->block_pc < vm->block_size) {
		uint32_t left = (vm->block_pc + vm->block_size - pc) >> 2;

		vm->now -= left;
		vm->insns -= left;
	}
	read_regs(vm, sw->regs);
	sw->regs[15] = pc;
	vm->resume_pc = pc;
	vm->stop = kind;
	uc_emu_stop(vm->uc);
}

static void sweep_hook(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
	struct vemu *vm = user;
	struct sweep_state *sw = &vm->sweep;
	uint32_t pc = (uint32_t)address;

	(void)uc; (void)size;
	if (vm->stop != STOP_NONE)	/* the block is ending before this instruction anyway */
		return;
	switch (sw->phase) {
	case SWEEP_WAIT:
		if (pc != sw->start || ++sw->arrivals < vm->opt.sweep_arrival)
			return;
		sw->ret_pc = cpu_reg(vm, UC_ARM_REG_LR) & ~1u;
		sw->ret_sp = cpu_reg(vm, UC_ARM_REG_SP);
		sw->ret_mode = cpu_reg(vm, UC_ARM_REG_CPSR) & PSR_MODE_MASK;
		sw->phase = SWEEP_COUNT;
		sw->steps = 0;
		stop_before(vm, pc, STOP_SWEEP_ARRIVAL);
		return;
	case SWEEP_COUNT:
		if (pc == sw->start && sw->steps) {	/* called again: that is another visit */
			sw->phase = SWEEP_DONE;
			return;
		}
		if ((int64_t)sw->steps++ != sw->target)
			return;
		sw->point_pc = pc;
		sw->phase = SWEEP_DONE;
		stop_before(vm, pc, STOP_SWEEP_POINT);
		return;
	default:
		return;
	}
}

void sweep_cpu_block(struct vemu *vm, uint32_t pc)
{
	struct sweep_state *sw = &vm->sweep;

	if (sw->phase == SWEEP_COUNT && pc == sw->ret_pc && cpu_reg(vm, UC_ARM_REG_SP) >= sw->ret_sp &&
	    (cpu_reg(vm, UC_ARM_REG_CPSR) & PSR_MODE_MASK) == sw->ret_mode)
		sw->phase = SWEEP_DONE;
}

/* False (the run fails) if Unicorn ran the instruction it was told to stop before. */
static bool stopped_before(struct vemu *vm)
{
	uint32_t now[17];

	read_regs(vm, now);
	if (!memcmp(now, vm->sweep.regs, sizeof(now)))
		return true;
	for (unsigned n = 0; n < 17; n++)
		if (now[n] != vm->sweep.regs[n]) {
			vemu_fail(vm, "--sweep: Unicorn did not stop before the instruction at 0x%08x "
				  "(%s%u was 0x%08x at the stop, 0x%08x after it)", vm->resume_pc,
				  n == 16 ? "CPSR" : "r", n == 16 ? 0 : n, vm->sweep.regs[n], now[n]);
			break;
		}
	return false;
}

uint32_t sweep_cpu_arrive(struct vemu *vm)
{
	if (stopped_before(vm))
		sweep_arrive(vm);
	return vm->resume_pc;
}

uint32_t sweep_cpu_land(struct vemu *vm)
{
	struct sweep_state *sw = &vm->sweep;
	uint32_t pc = vm->resume_pc;

	if (!stopped_before(vm))
		return pc;
	vm->soft_irq_raise(vm, sw->soft_line);
	if (!vm->irq_level) {
		sw->landed = 2;	/* no handler unmasked on the line: nothing to take */
		return pc;
	}
	if (!(cpu_reg(vm, UC_ARM_REG_CPSR) & PSR_I)) {
		sw->landed = 1;
		cpu_take_irq(vm, pc);
		return cpu_reg(vm, UC_ARM_REG_PC);
	}
	sw->landed = 0;		/* pending until the guest unmasks: a block boundary takes it */
	return pc;
}

/* "0x1000-0x1040" (end excluded) or a function's name. */
static bool parse_range(struct vemu *vm, const char *spec, uint32_t *start, uint32_t *end)
{
	char *dash, *e1, *e2;
	uint32_t size;

	if (spec[0] >= '0' && spec[0] <= '9') {
		unsigned long a = strtoul(spec, &dash, 0), b;

		if (*dash != '-' || !dash[1]) {
			fprintf(stderr, "vivt-emu: --sweep %s: a range is START-END (end excluded), "
				"or name a function\n", spec);
			return false;
		}
		b = strtoul(dash + 1, &e2, 0);
		e1 = e2;
		if (*e1 || a > 0xffffffffu || b > 0xffffffffu || (a & 3) || (b & 3)) {
			fprintf(stderr, "vivt-emu: --sweep %s: START and END must be 32-bit addresses of "
				"ARM instructions (multiples of 4)\n", spec);
			return false;
		}
		if (b <= a) {
			fprintf(stderr, "vivt-emu: --sweep %s: the range is empty (END must be above START)\n", spec);
			return false;
		}
		*start = (uint32_t)a;
		*end = (uint32_t)b;
		return true;
	}
	if (!symbols_find_func(vm->syms, spec, start, &size)) {
		fprintf(stderr, "vivt-emu: --sweep %s: no function of that name in %s%s\n", spec,
			vm->opt.inner ? vm->opt.inner : vm->opt.elf,
			symbols_count(vm->syms) ? "" : " (it has no symbol table)");
		return false;
	}
	if (!size || (*start & 3)) {
		fprintf(stderr, "vivt-emu: --sweep %s: the function at 0x%08x has no size (or is Thumb code): "
			"give its range as START-END\n", spec, *start);
		return false;
	}
	*end = *start + size;
	return true;
}

int sweep_cpu_init(struct vemu *vm)
{
	struct sweep_state *sw = &vm->sweep;
	uint32_t line_va, line;
	uc_hook h;

	if (!vm->opt.sweep)
		return 0;
	if (!parse_range(vm, vm->opt.sweep, &sw->start, &sw->end))
		return -1;
	if (!vm->soft_irq_raise) {
		fprintf(stderr, "vivt-emu: --sweep: the %s model has no software interrupt line to land "
			"IRQs with\n", vm->mach->name);
		return -1;
	}
	if (!symbols_find(vm->syms, "board_soft_irq", &line_va) || !guest_read(vm, line_va, &line, 4) ||
	    line > 31) {
		fprintf(stderr, "vivt-emu: --sweep: %s has no board_soft_irq (the line its IRQ "
			"handlers are registered on)\n", vm->opt.inner ? vm->opt.inner : vm->opt.elf);
		return -1;
	}
	sw->soft_line = line;
	sw->target = -1;
	sw->landed = -1;
	sw->phase = SWEEP_WAIT;
	if (uc_hook_add(vm->uc, &h, UC_HOOK_CODE, (void *)sweep_hook, vm, sw->start, sw->end - 1) != UC_ERR_OK) {
		fprintf(stderr, "vivt-emu: --sweep: cannot hook 0x%08x-0x%08x\n", sw->start, sw->end);
		return -1;
	}
	return 0;
}
