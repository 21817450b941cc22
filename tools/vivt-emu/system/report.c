/*
 * Printing the model's reports: kind, VA, PA, the kmap slot or pkmap index
 * behind the VA, the exact PC with symbol and source line, and the running
 * thread.
 *
 * Exact PC: Unicorn gives memory hooks only the start of the translated
 * block.  The machine counts the loads and stores issued since the block
 * began; the report decodes the block's instructions from its start and
 * finds the one that issued that ordinal (LDM/STM count one access per
 * register, LDRD/STRD two, SWP one of each).  A conditional access that did
 * not execute would shift the count, so the printed PC says "derived"
 * where it came from decoding rather than from a CP15 site or a fetch.
 */
#include <stdlib.h>
#include <string.h>
#include "vemu.h"
#include "memsys/memsys.h"

/* The longest thread name a report reads (the image's own limit is its business). */
#define NAME_MAX_READ	64
#define REPORTS_IN_FULL	10

/* How many loads and stores one instruction issues. */
static void accesses(uint32_t insn, unsigned *loads, unsigned *stores)
{
	bool l = insn >> 20 & 1;

	*loads = *stores = 0;
	if (insn >> 28 == 0xf)
		return;
	if ((insn & 0x0c000000u) == 0x04000000u && !((insn & (1u << 25)) && (insn & 0x10))) {
		*(l ? loads : stores) = 1;
	} else if ((insn & 0x0e000000u) == 0x08000000u) {
		*(l ? loads : stores) = (unsigned)__builtin_popcount(insn & 0xffff);
	} else if ((insn & 0x0fb00ff0u) == 0x01000090u) {
		*loads = *stores = 1;
	} else if ((insn & 0x0e000090u) == 0x00000090u && (insn & 0x60)) {
		if (l)
			*loads = 1;
		else if ((insn & 0x60) == 0x20)
			*stores = 1;
		else if ((insn & 0x60) == 0x40)
			*loads = 2;
		else
			*stores = 2;
	}
}

uint32_t report_exact_pc(struct vemu *vm, bool is_store, unsigned ordinal)
{
	unsigned seen = 0;

	for (uint32_t a = vm->block_pc; a < vm->block_pc + vm->block_size; a += 4) {
		uint32_t insn;
		unsigned ld, st;

		if (!guest_read(vm, a, &insn, 4))
			break;
		accesses(insn, &ld, &st);
		seen += is_store ? st : ld;
		if (seen > ordinal)
			return a;
	}
	return vm->block_pc;
}

void report_thread_name(struct vemu *vm, char *buf, size_t len)
{
	uint32_t cur_addr, cur = 0, off_addr, off = 0;
	char name[NAME_MAX_READ + 1] = "";

	snprintf(buf, len, "unknown");
	if (!guest_pcpu_hot_field(vm, PCPU_HOT_CURR, &cur_addr) || !guest_read(vm, cur_addr, &cur, 4) || !cur)
		return;
	/* The image says where name[] is (struct thread's layout is its own). */
	if (!symbols_find(vm->syms, "thread_name_offset", &off_addr) ||
	    !guest_read(vm, off_addr, &off, 4) || off > 4096)
		return;
	/* Up to its NUL (the kernel always leaves one), however long the image's names are. */
	for (size_t i = 0; i < sizeof(name) - 1; i++) {
		if (!guest_read(vm, cur + off + (uint32_t)i, &name[i], 1))
			return;
		if (!name[i]) {
			snprintf(buf, len, "'%s'", name);
			return;
		}
	}
}

/*
 * Name the kmap slot or pkmap index of va, from the image's own layout
 * (arch/arm/mm/kmap-layout.c); an image without one gets no name.
 */
static void describe_va(struct vemu *vm, uint32_t va, char *buf, size_t len)
{
	struct { uint32_t slot0, nr_slots, pkmap_base, nr_pkmap; } lay;
	uint32_t page = va & ~0xfffu, addr;

	buf[0] = 0;
	if (!symbols_find(vm->syms, "kmap_layout", &addr) || !guest_read(vm, addr, &lay, sizeof(lay)))
		return;
	if (page <= lay.slot0 && (lay.slot0 - page) / 4096u < lay.nr_slots)
		snprintf(buf, len, " (kmap_local slot %u)", (lay.slot0 - page) / 4096u);
	else if (va >= lay.pkmap_base && (va - lay.pkmap_base) / 4096u < lay.nr_pkmap)
		snprintf(buf, len, " (pkmap index %u)", (va - lay.pkmap_base) / 4096u);
}

static void print_op(struct vemu *vm, const char *what, const struct maint_op *m)
{
	uint32_t off = 0;
	const char *sym = symbols_lookup(vm->syms, m->pc, &off);

	fprintf(vm->out, "vivt-emu:   %s: c%u,c%u,%u of 0x%08x at pc 0x%08x %s+0x%x, %llu ns before\n",
		what, m->crn, m->crm, m->opc2, m->val, m->pc, sym ? sym : "?", off,
		(unsigned long long)(vm->now - m->when));
}

/*
 * The maintenance history around a report: the last by-MVA operation on
 * the line itself, or failing that the last one on its page.  A flush loop
 * that stopped short shows up as "the page's last op was on another line".
 */
static void print_maintenance(struct vemu *vm, uint32_t va)
{
	uint32_t n = vm->maint_next < VEMU_MAINT_RING ? vm->maint_next : VEMU_MAINT_RING;
	const struct maint_op *page_op = NULL;

	for (uint32_t i = 1; i <= n; i++) {
		const struct maint_op *m = &vm->maint[(vm->maint_next - i) % VEMU_MAINT_RING];

		if (m->crn != 7 || m->opc2 != 1)
			continue;	/* only by-MVA line operations name an address */
		if ((m->val & ~31u) == (va & ~31u)) {
			print_op(vm, "last maintenance of this line", m);
			return;
		}
		if (!page_op && (m->val & ~0xfffu) == (va & ~0xfffu))
			page_op = m;
	}
	fprintf(vm->out, "vivt-emu:   no by-MVA maintenance of line 0x%08x in the last %u CP15 operations\n",
		va & ~31u, n);
	if (page_op)
		print_op(vm, "the last one on its page", page_op);
}

static void print_full(struct vemu *vm, const struct ms_report *r);

void report_print(void *ctx, const struct ms_report *r)
{
	struct vemu *vm = ctx;

	vm->reports++;
	if (vm->reports <= REPORTS_IN_FULL)
		print_full(vm, r);
	if (vm->opt.max_reports && vm->reports >= vm->opt.max_reports)
		vemu_fail(vm, "%lu reports: stopping the run", vm->reports);
}

static void print_full(struct vemu *vm, const struct ms_report *r)
{
	uint32_t pc = r->pc, off = 0;
	const char *how = "", *sym;
	char where[64], line[256], thread[40];

	if (r->kind == MS_STALE_IFETCH) {
		pc = r->va;
	} else if (vm->access_kind && r->pc == vm->block_pc) {
		pc = report_exact_pc(vm, vm->access_kind == 2,
				     (vm->access_kind == 2 ? vm->block_stores : vm->block_loads) - 1);
		how = " (derived from block 0x";
	}
	sym = symbols_lookup(vm->syms, pc, &off);
	symbols_source_line(vm->syms, pc, line, sizeof(line));
	describe_va(vm, r->va, where, sizeof(where));
	report_thread_name(vm, thread, sizeof(thread));
	fflush(stdout);
	fprintf(vm->out, "vivt-emu: REPORT %s: VA 0x%08x PA 0x%08x%s at pc 0x%08x %s+0x%x",
		ms_report_kind_name(r->kind), r->va, r->pa, where, pc, sym ? sym : "?", off);
	if (*how)
		fprintf(vm->out, "%s%08x+%u)", how, vm->block_pc, vm->block_size);
	fprintf(vm->out, " %s, thread %s, time %llu ns: %s\n", *line ? line : "(no line)", thread,
		(unsigned long long)vm->now, r->detail ? r->detail : "");
	/* The model names other PCs in its detail (the newest write's): resolve them too. */
	for (const char *p = r->detail; p && (p = strstr(p, "PC 0x")); p += 5) {
		uint32_t other = (uint32_t)strtoul(p + 3, NULL, 16), o = 0;
		const char *osym = symbols_lookup(vm->syms, other, &o);

		symbols_source_line(vm->syms, other, line, sizeof(line));
		fprintf(vm->out, "vivt-emu:   PC 0x%08x named above is %s+0x%x %s\n", other,
			osym ? osym : "?", o, *line ? line : "(no line)");
	}
	/* A walk's descriptor lives in lowmem, where VA == PA. */
	print_maintenance(vm, r->kind == MS_UNCLEAN_WALK ? r->pa : r->va);
	if (vm->reports == REPORTS_IN_FULL)
		fprintf(vm->out, "vivt-emu: further reports are counted, not printed\n");
}
