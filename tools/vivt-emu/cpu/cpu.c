/*
 * The ARM926EJ-S in Unicorn 2: setup, the hooks that count time and feed
 * the memory-system model, exception entry (IRQ, aborts with FAR/FSR, SVC,
 * undefined), and every CP15 MCR/MRC site of the image.
 */
#include <stdlib.h>
#include <string.h>
#include "vemu.h"
#include "memsys/memsys.h"

#define PSR_MODE_MASK	0x1fu
#define MODE_IRQ	0x12u
#define MODE_SVC	0x13u
#define MODE_ABT	0x17u
#define MODE_UND	0x1bu
#define PSR_T		(1u << 5)
#define PSR_I		(1u << 7)
#define SCTLR_V		(1u << 13)

/* Unicorn 2.0.1 checks the virtual address against its own map first:
 * the high range (pkmap, fixmap, vectors) needs something mapped there. */
#define HIGH_VA_BASE	0xff000000u
#define HIGH_VA_SIZE	0x01000000u

struct cp15_site {
	struct vemu *vm;
	uint32_t insn;
};

/* Unicorn's id of core register n: r13-r15 are not after r0-r12 in its numbering. */
static int core_reg_id(unsigned n)
{
	return n < 13 ? UC_ARM_REG_R0 + (int)n : n == 13 ? UC_ARM_REG_SP : n == 14 ? UC_ARM_REG_LR : UC_ARM_REG_PC;
}

uint32_t cpu_reg(struct vemu *vm, int reg)
{
	uint32_t v = 0;

	uc_reg_read(vm->uc, reg, &v);
	return v;
}

void cpu_set_reg(struct vemu *vm, int reg, uint32_t val)
{
	uc_reg_write(vm->uc, reg, &val);
}

uint32_t cpu_cp15(struct vemu *vm, unsigned crn, unsigned opc1, unsigned crm, unsigned opc2)
{
	uc_arm_cp_reg r = { .cp = 15, .crn = crn, .opc1 = opc1, .crm = crm, .opc2 = opc2 };

	if (uc_reg_read(vm->uc, UC_ARM_REG_CP_REG, &r) != UC_ERR_OK)
		return 0;
	return (uint32_t)r.val;
}

void cpu_set_cp15(struct vemu *vm, unsigned crn, unsigned opc1, unsigned crm, unsigned opc2, uint32_t val)
{
	uc_arm_cp_reg r = { .cp = 15, .crn = crn, .opc1 = opc1, .crm = crm, .opc2 = opc2, .val = val };

	uc_reg_write(vm->uc, UC_ARM_REG_CP_REG, &r);
}

/*
 * Drop every translation Unicorn caches: a write of CP15 c8,c7,0 runs the
 * CPU model's own TLB flush (Unicorn 2.0.1's uc_ctl_flush_tlb() flushes
 * translated code, not the TLB).  Call it between blocks, never from a
 * memory hook: a store in progress still uses its TLB entry.
 */
void cpu_flush_tlb(struct vemu *vm)
{
	cpu_set_cp15(vm, 8, 0, 7, 0, 0);
}

/* The ARM condition field against the NZCV flags. */
bool cpu_cond_passed(uint32_t insn, uint32_t cpsr)
{
	bool n = cpsr >> 31 & 1, z = cpsr >> 30 & 1, c = cpsr >> 29 & 1, v = cpsr >> 28 & 1;

	switch (insn >> 28) {
	case 0x0: return z;
	case 0x1: return !z;
	case 0x2: return c;
	case 0x3: return !c;
	case 0x4: return n;
	case 0x5: return !n;
	case 0x6: return v;
	case 0x7: return !v;
	case 0x8: return c && !z;
	case 0x9: return !c || z;
	case 0xa: return n == v;
	case 0xb: return n != v;
	case 0xc: return !z && n == v;
	case 0xd: return z || n != v;
	default: return true;
	}
}

static uint32_t vector_base(struct vemu *vm)
{
	return (cpu_cp15(vm, 1, 0, 0, 0) & SCTLR_V) ? 0xffff0000u : 0;
}

/* Exception entry as the ARM926 does it: bank switch, SPSR, LR, vector. */
static void enter_exception(struct vemu *vm, uint32_t mode, uint32_t offset, uint32_t lr)
{
	uint32_t cpsr = cpu_reg(vm, UC_ARM_REG_CPSR);
	uint32_t vbase = vector_base(vm);

	irqsoff_cpu_exception(vm, offset);
	cpu_set_reg(vm, UC_ARM_REG_CPSR, (cpsr & ~(PSR_MODE_MASK | PSR_T)) | mode | PSR_I);
	cpu_set_reg(vm, UC_ARM_REG_SPSR, cpsr);
	cpu_set_reg(vm, UC_ARM_REG_LR, lr);
	cpu_set_reg(vm, UC_ARM_REG_PC, vbase + offset);
}

void cpu_take_irq(struct vemu *vm, uint32_t pc)
{
	long f = vm->irqs_in ? symbols_func_index(vm->syms, pc) : -1;

	/* Where IRQs land, per function: the runners ask about the ones they care for. */
	if (f >= 0)
		vm->irqs_in[f]++;
	vm->irqs_taken++;
	vm->wfi_repeats = 0;
	enter_exception(vm, MODE_IRQ, 0x18, pc + 4);
}

static void quiet_halt(struct vemu *vm, uint32_t pc)
{
	uint32_t off = 0;
	const char *sym = symbols_lookup(vm->syms, pc, &off);

	fflush(stdout);
	if (vm->opt.board_mode) {
		fprintf(vm->out, "vivt-emu: the firmware halted quietly (WFI with interrupts off at 0x%08x %s+0x%x)\n",
			pc, sym ? sym : "?", off);
		vemu_exit(vm, 0);
	} else {
		vemu_fail(vm, "the firmware halted (WFI with interrupts off at 0x%08x %s+0x%x) without a semihosting exit",
			  pc, sym ? sym : "?", off);
	}
}

/*
 * WFI: the core sleeps until its IRQ input is raised (vemu_sleep), then
 * carries on after the WFI.  A halt is proven two ways, both with IRQs
 * masked in CPSR: the same WFI reached again and again with an IRQ still
 * pending and none taken in between (the halt loop around WFI), or a sleep
 * nothing armed could ever end.  A sleep that waits for host input is
 * neither: input may come.
 */
static void wait_for_interrupt(struct vemu *vm, uint32_t pc)
{
	bool masked = cpu_reg(vm, UC_ARM_REG_CPSR) & PSR_I;

	if (masked && vm->irq_level) {
		if (vm->wfi_pc == pc && ++vm->wfi_repeats >= 3) {
			quiet_halt(vm, pc);
			return;
		}
		if (vm->wfi_pc != pc)
			vm->wfi_repeats = 0;
	} else {
		vm->wfi_repeats = 0;
	}
	vm->wfi_pc = pc;
	switch (vemu_sleep(vm, pc)) {
	case SLEEP_WOKEN:
		break;
	case SLEEP_STOPPED:
		return;
	case SLEEP_FOREVER:
		if (masked)
			quiet_halt(vm, pc);
		else
			vemu_fail(vm, "WFI at 0x%08x with no timer armed and no input that could "
				  "raise an interrupt: the CPU would sleep forever", pc);
		return;
	case SLEEP_UNWOKEN:
		if (masked)
			quiet_halt(vm, pc);
		else
			vemu_fail(vm, "WFI at 0x%08x: no interrupt in an hour of emulated time while "
				  "timers kept running (their interrupts off?): the CPU would sleep forever", pc);
		return;
	}
	/* Unicorn's own WFI ends the run (or the block); carry on after it. */
	if (vm->stop == STOP_NONE) {
		vm->resume_pc = pc + 4;
		vm->stop = STOP_RESUME;
		uc_emu_stop(vm->uc);
	}
}

static void cp15_hook(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
	struct cp15_site *site = user;
	struct vemu *vm = site->vm;
	uint32_t insn = site->insn, pc = (uint32_t)address;
	unsigned crn = insn >> 16 & 15, opc1 = insn >> 21 & 7, crm = insn & 15, opc2 = insn >> 5 & 7;
	unsigned rd = insn >> 12 & 15;
	uint32_t cpsr;

	(void)uc; (void)size;
	cpsr = cpu_reg(vm, UC_ARM_REG_CPSR);
	if (!cpu_cond_passed(insn, cpsr))
		return;
	if (!(insn & (1u << 20))) {	/* MCR */
		uint32_t val = rd == 15 ? pc + 8 : cpu_reg(vm, core_reg_id(rd));

		if (crn == 7 || crn == 8) {
			struct maint_op *m = &vm->maint[vm->maint_next++ % VEMU_MAINT_RING];

			*m = (struct maint_op){ .when = vm->now, .pc = pc, .val = val,
						.crn = (uint8_t)crn, .crm = (uint8_t)crm, .opc2 = (uint8_t)opc2 };
		}
		if (vm->ms)
			ms_cp15_write(vm->ms, crn, opc1, crm, opc2, val, pc);
		if (crn == 7 && opc1 == 0 && ((crm == 0 && opc2 == 4) || (crm == 8 && opc2 == 2)))
			wait_for_interrupt(vm, pc);
		return;
	}
	if (vm->ms) {			/* MRC the model answers: skip Unicorn's own */
		uint32_t val;

		if (!ms_cp15_read(vm->ms, crn, opc1, crm, opc2, pc, &val))
			return;
		if (rd == 15)
			cpu_set_reg(vm, UC_ARM_REG_CPSR, (cpsr & 0x0fffffffu) | (val & 0xf0000000u));
		else
			cpu_set_reg(vm, core_reg_id(rd), val);
		cpu_set_reg(vm, UC_ARM_REG_PC, pc + 4);
	}
}

void cpu_add_cp15_sites(struct vemu *vm, const uint8_t *code, uint32_t va, uint32_t len)
{
	for (uint32_t off = 0; off + 4 <= len; off += 4) {
		uint32_t insn;
		struct cp15_site *site;
		uc_hook h;

		memcpy(&insn, code + off, 4);
		if ((insn & 0x0f000f10u) != 0x0e000f10u || insn >> 28 == 0xf)
			continue;
		site = malloc(sizeof(*site));
		if (!site)
			abort();
		site->vm = vm;
		site->insn = insn;
		if (uc_hook_add(vm->uc, &h, UC_HOOK_CODE, (void *)cp15_hook, site,
				va + off, va + off) != UC_ERR_OK) {
			fprintf(stderr, "vivt-emu: cannot hook the CP15 site at 0x%08x\n", va + off);
			exit(1);
		}
	}
}

void cpu_insn_limit_stop(struct vemu *vm, uint32_t pc)
{
	vemu_fail(vm, "stopped at %s of %llu instructions (%.3f s emulated, pc 0x%08x): "
		  "--insn-limit N raises it, 0 for none",
		  vm->opt.insn_limit == VEMU_DEFAULT_INSN_LIMIT ? "the default limit" : "--insn-limit",
		  (unsigned long long)vm->opt.insn_limit, (double)vm->now / 1e9, pc);
}

/*
 * The instruction limit falls in the block about to run (vm->block_size
 * long): stop before it, and the run loop runs its first instructions up
 * to the limit under Unicorn's count (an instruction hook for those only).
 */
static void insn_limit_near(struct vemu *vm, uint32_t pc)
{
	if (vm->insns >= vm->opt.insn_limit) {
		cpu_insn_limit_stop(vm, pc);
		return;
	}
	vm->count_left = vm->opt.insn_limit - vm->insns;
	vm->resume_pc = pc;
	vm->stop = STOP_COUNT;
	uc_emu_stop(vm->uc);
}

/*
 * Every block: time advances by its instructions (1 instruction = 1 ns),
 * due events fire, and a pending IRQ is taken at this block boundary.
 */
static void block_hook(uc_engine *uc, uint64_t address, uint32_t size, void *user)
{
	struct vemu *vm = user;
	uint32_t pc = (uint32_t)address;

	/* Before anything is counted: the block runs again once stopped here,
	 * the first time under Unicorn's count (anything after it is past the
	 * limit: stopped at once). */
	if (vm->opt.insn_limit && vm->insns + (size >> 2) > vm->opt.insn_limit) {
		if (!vm->counting) {
			vm->block_size = size;
			insn_limit_near(vm, pc);
			return;
		}
		vm->counting = false;
	}
	if (vm->psr_pending)
		irqsoff_cpu_settle(vm);
	irqsoff_cpu_block(vm, pc);
	irqsoff_cpu_own(vm, pc, size);
	vm->pipe_cycles += pipeline_block(vm, pc, size);
	vm->block_pc = pc;
	vm->block_size = size;
	vm->block_loads = vm->block_stores = 0;
	if (vm->sweep.phase == SWEEP_COUNT)
		sweep_cpu_block(vm, pc);
	vm->now += size >> 2;
	vm->insns += size >> 2;
	if (vm->ms && ms_tlb_changed(vm->ms))
		cpu_flush_tlb(vm);
	if (vm->ms)	/* a stale word's VA is its own PC: the report prints that */
		ms_fetch(vm->ms, pc, size, pc);
	if (vm->now >= vm->next_event)
		vemu_run_events(vm);
	if (vm->opt.max_insns && vm->now > vm->opt.max_insns) {
		vemu_fail(vm, "no exit after %llu ns of emulated time (pc 0x%08x)",
			  (unsigned long long)vm->now, pc);
		return;
	}
	if (vm->insns >= vm->runctl_next) {
		runctl_check(vm);
		if (vm->stop == STOP_ERROR)
			return;
	}
	if (vm->irq_level && !(cpu_reg(vm, UC_ARM_REG_CPSR) & PSR_I)) {
		vm->resume_pc = pc;
		vm->stop = STOP_IRQ;
		uc_emu_stop(uc);
	}
}

static void mem_hook(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *user)
{
	struct vemu *vm = user;

	(void)uc; (void)value;
	if (type == UC_MEM_READ_AFTER) {
		vm->block_loads++;
		vm->access_kind = 1;
		ms_load(vm->ms, (uint32_t)addr, (unsigned)size, vm->block_pc);
		vm->access_kind = 0;
	} else if (type == UC_MEM_WRITE) {
		vm->block_stores++;
		vm->access_kind = 2;
		ms_store(vm->ms, (uint32_t)addr, (unsigned)size, vm->block_pc);
		vm->access_kind = 0;
	}
}

static bool unmapped_hook(uc_engine *uc, uc_mem_type type, uint64_t addr, int size, int64_t value, void *user)
{
	struct vemu *vm = user;
	const char *what = type == UC_MEM_FETCH_UNMAPPED ? "fetch" :
			   type == UC_MEM_WRITE_UNMAPPED ? "write" : "read";

	(void)uc; (void)value;
	vemu_fail(vm, "%s of %d bytes at 0x%08llx: no memory or device there (pc near 0x%08x)",
		  what, size, (unsigned long long)addr, vm->block_pc);
	return false;
}

static uint32_t shifted_reg(struct vemu *vm, uint32_t insn)
{
	uint32_t rm = cpu_reg(vm, core_reg_id(insn & 15));
	unsigned amt = insn >> 7 & 31;

	if ((insn & 15) == 15)
		rm = cpu_reg(vm, UC_ARM_REG_PC) + 8;
	switch (insn >> 5 & 3) {
	case 0: return rm << amt;
	case 1: return amt ? rm >> amt : 0;
	case 2: return amt ? (uint32_t)((int32_t)rm >> amt) : (uint32_t)((int32_t)rm >> 31);
	default:
		if (!amt)	/* RRX */
			return (rm >> 1) | ((cpu_reg(vm, UC_ARM_REG_CPSR) >> 29 & 1) << 31);
		return (rm >> amt) | (rm << (32 - amt));
	}
}

/*
 * The addresses a faulting load/store touches, from its encoding and the
 * registers at the fault (Unicorn does not say which address faulted).
 */
static unsigned access_addresses(struct vemu *vm, uint32_t insn, uint32_t pc,
				 uint32_t *addr, unsigned *size, unsigned max)
{
	unsigned rn = insn >> 16 & 15;
	uint32_t base = rn == 15 ? pc + 8 : cpu_reg(vm, core_reg_id(rn));
	bool p = insn >> 24 & 1, u = insn >> 23 & 1;

	if ((insn & 0x0c000000u) == 0x04000000u) {		/* LDR/STR(B) */
		uint32_t off = (insn & (1u << 25)) ? shifted_reg(vm, insn) : (insn & 0xfff);

		addr[0] = p ? (u ? base + off : base - off) : base;
		*size = (insn & (1u << 22)) ? 1 : 4;
		return 1;
	}
	if ((insn & 0x0e000000u) == 0x08000000u) {		/* LDM/STM */
		unsigned n = (unsigned)__builtin_popcount(insn & 0xffff);
		uint32_t start = u ? (p ? base + 4 : base) : (p ? base - 4 * n : base - 4 * n + 4);

		*size = 4;
		for (unsigned i = 0; i < n && i < max; i++)
			addr[i] = start + 4 * i;
		return n < max ? n : max;
	}
	if ((insn & 0x0fb00ff0u) == 0x01000090u) {		/* SWP(B) */
		addr[0] = base;
		*size = (insn & (1u << 22)) ? 1 : 4;
		return 1;
	}
	if ((insn & 0x0e000090u) == 0x00000090u && (insn & 0x60)) {	/* LDRH/STRH/LDRD ... */
		uint32_t off = (insn & (1u << 22)) ? ((insn >> 4 & 0xf0) | (insn & 15))
						   : cpu_reg(vm, core_reg_id(insn & 15));
		bool dual = !(insn & (1u << 20)) && (insn & 0x40);

		addr[0] = p ? (u ? base + off : base - off) : base;
		*size = dual ? 4 : ((insn & 0x60) == 0x20 ? 2 : ((insn & 0x60) == 0x40 ? 1 : 2));
		if (dual && max > 1) {
			addr[1] = addr[0] + 4;
			return 2;
		}
		return 1;
	}
	return 0;
}

/* A data abort: work out FAR and FSR as the ARM926 would, then enter ABT. */
static void data_abort(struct vemu *vm)
{
	uint32_t pc = cpu_reg(vm, UC_ARM_REG_PC), insn = 0, addr[16], pa;
	uint32_t far = 0, fsr = 0, sctlr = cpu_cp15(vm, 1, 0, 0, 0);
	unsigned size = 4, n;

	if (!guest_read(vm, pc, &insn, 4)) {
		vemu_fail(vm, "data abort at 0x%08x, whose instruction cannot be read", pc);
		return;
	}
	n = access_addresses(vm, insn, pc, addr, &size, 16);
	for (unsigned i = 0; i < n; i++) {
		bool write = !(insn & (1u << 20));

		if ((sctlr & 2) && (addr[i] & (size - 1))) {
			far = addr[i];
			fsr = 0x1;
			break;
		}
		fsr = mmu_probe(vm, addr[i], write, &pa);
		if (fsr) {
			far = addr[i];
			break;
		}
	}
	if (!fsr) {
		vemu_fail(vm, "data abort at 0x%08x (insn 0x%08x) that the page tables do not explain", pc, insn);
		return;
	}
	cpu_set_cp15(vm, 5, 0, 0, 0, fsr);
	cpu_set_cp15(vm, 6, 0, 0, 0, far);
	enter_exception(vm, MODE_ABT, 0x10, pc + 8);
}

static void intr_hook(uc_engine *uc, uint32_t intno, void *user)
{
	struct vemu *vm = user;
	uint32_t pc = cpu_reg(vm, UC_ARM_REG_PC), pa;

	(void)uc;
	switch (intno) {
	case 2: {	/* SVC: PC is already past it */
		uint32_t insn = 0;

		guest_read(vm, pc - 4, &insn, 4);
		if (!vm->opt.board_mode && (insn & 0xffffff) == 0x123456) {
			if (!semihost_call(vm))
				return;
			return;
		}
		enter_exception(vm, MODE_SVC, 0x08, pc);
		return;
	}
	case 4:
		data_abort(vm);
		return;
	case 3:	{	/* prefetch abort at PC */
		uint32_t fsr = mmu_probe(vm, pc, false, &pa);

		cpu_set_cp15(vm, 5, 0, 0, 1, fsr ? fsr : 0x5);
		enter_exception(vm, MODE_ABT, 0x0c, pc + 4);
		return;
	}
	case 1:		/* undefined instruction at PC */
		enter_exception(vm, MODE_UND, 0x04, pc + 4);
		return;
	default:
		vemu_fail(vm, "CPU exception %u at 0x%08x that the machine does not model", intno, pc);
	}
}

/*
 * The high range, less the device windows a machine has there (the AT91's
 * TC block and system controller): those keep their device callbacks.
 */
static uc_err map_high_range(struct vemu *vm)
{
	const struct machine_desc *m = vm->mach;
	uint64_t win[2][2] = { { m->mmio_base, (uint64_t)m->mmio_base + m->mmio_size },
			       { m->mmio2_base, (uint64_t)m->mmio2_base + m->mmio2_size } };
	uint64_t at = HIGH_VA_BASE, end = (uint64_t)HIGH_VA_BASE + HIGH_VA_SIZE;
	uc_err err = UC_ERR_OK;

	if (win[1][0] < win[0][0]) {
		uint64_t t0 = win[0][0], t1 = win[0][1];

		win[0][0] = win[1][0], win[0][1] = win[1][1], win[1][0] = t0, win[1][1] = t1;
	}
	for (int i = 0; i < 2 && err == UC_ERR_OK; i++) {
		if (win[i][1] <= at || win[i][0] >= end || win[i][0] == win[i][1])
			continue;
		if (win[i][0] > at)
			err = uc_mem_map(vm->uc, at, win[i][0] - at, UC_PROT_ALL);
		at = win[i][1];
	}
	if (err == UC_ERR_OK && at < end)
		err = uc_mem_map(vm->uc, at, end - at, UC_PROT_ALL);
	return err;
}

int cpu_init(struct vemu *vm)
{
	uc_err err;

	err = uc_open(UC_ARCH_ARM, UC_MODE_ARM, &vm->uc);
	if (err == UC_ERR_OK)
		err = uc_ctl_set_cpu_model(vm->uc, UC_CPU_ARM_926);
	if (err == UC_ERR_OK)
		err = uc_mem_map_ptr(vm->uc, vm->mach->ram_base, vm->ram_size, UC_PROT_ALL, vm->ram);
	if (err == UC_ERR_OK && vm->flash)
		err = uc_mem_map_ptr(vm->uc, vm->mach->flash_base, vm->mach->flash_size,
				     UC_PROT_READ | UC_PROT_EXEC, vm->flash);
	if (err == UC_ERR_OK)
		err = map_high_range(vm);
	if (err != UC_ERR_OK) {
		fprintf(stderr, "vivt-emu: Unicorn setup failed: %s\n", uc_strerror(err));
		return -1;
	}
	vemu_mmio_init(vm);
	return 0;
}

void cpu_add_hooks(struct vemu *vm)
{
	uc_hook h;

	uc_hook_add(vm->uc, &h, UC_HOOK_BLOCK, (void *)block_hook, vm, 1, 0);
	uc_hook_add(vm->uc, &h, UC_HOOK_INTR, (void *)intr_hook, vm, 1, 0);
	uc_hook_add(vm->uc, &h, UC_HOOK_MEM_UNMAPPED, (void *)unmapped_hook, vm, 1, 0);
	if (vm->ms) {
		uc_hook_add(vm->uc, &h, UC_HOOK_MEM_READ_AFTER, (void *)mem_hook, vm, 1, 0);
		uc_hook_add(vm->uc, &h, UC_HOOK_MEM_WRITE, (void *)mem_hook, vm, 1, 0);
	}
}
