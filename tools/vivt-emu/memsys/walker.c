/*
 * The hardware table walker: ARMv5 short descriptors, sections and coarse
 * tables with large and small pages.  It reads physical memory, never the
 * D-cache or the write buffer, so every descriptor word it reads must hold
 * the newest write: anything else means a missing clean or a missing drain.
 * Values come from the coherent RAM, so translation follows what the guest
 * wrote even when the check fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memsys-int.h"

static bool read_desc(struct memsys *ms, uint32_t pa, uint32_t va, uint32_t pc,
		      const char *level, uint32_t *val)
{
	size_t idx;
	uint64_t pend;

	if (!pa_in_ram(ms, pa))
		return false;
	memcpy(val, ms->cfg.ram + (pa - ms->cfg.ram_base), 4);
	idx = word_index(ms, pa);
	if (ms->mem[idx] != ms->shadow[idx]) {
		bool buffered = wb_pending(ms, pa, &pend) && pend == ms->shadow[idx];

		oracle_report(ms, MS_UNCLEAN_WALK, va, pa, pc, pa,
			      "walk reads %s descriptor 0x%08x at PA 0x%08x whose newest write "
			      "(PC 0x%08x) is %s",
			      level, *val, pa, ms->writer[idx],
			      buffered ? "still in the write buffer: no drain after the clean"
				       : "not in memory: no clean (and drain) after it");
	}
	return true;
}

static void unsupported(const char *what, uint32_t pa, uint32_t desc, uint32_t va, uint32_t pc)
{
	fprintf(stderr,
		"vivt-emu: memsys: %s (descriptor 0x%08x at PA 0x%08x) maps VA 0x%08x at PC 0x%08x;"
		" the model implements sections and coarse tables with small and large pages only\n",
		what, desc, pa, va, pc);
	exit(2);
}

bool walk(struct memsys *ms, uint32_t va, uint32_t pc, struct tlb_entry *e)
{
	uint32_t l1pa = (ms->ttbr & 0xffffc000u) | ((va >> 20) << 2);
	uint32_t d1, d2, l2pa;

	ms->st.walks++;
	if (!read_desc(ms, l1pa, va, pc, "L1", &d1))
		return false;
	memset(e, 0, sizeof(*e));
	e->l1pa = l1pa;
	e->l1val = d1;
	switch (d1 & 3) {
	case 0:
		return false;
	case 2:
		e->vmask = 0xfff00000u;
		e->pbase = d1 & 0xfff00000u;
		e->attr = (d1 >> 2) & 3;
		break;
	case 1:
		l2pa = (d1 & 0xfffffc00u) | (((va >> 12) & 0xff) << 2);
		if (!read_desc(ms, l2pa, va, pc, "L2", &d2))
			return false;
		e->has_l2 = true;
		e->l2pa = l2pa;
		e->l2val = d2;
		e->attr = (d2 >> 2) & 3;
		switch (d2 & 3) {
		case 0:
			return false;
		case 1:
			e->vmask = 0xffff0000u;
			e->pbase = d2 & 0xffff0000u;
			break;
		case 2:
			e->vmask = 0xfffff000u;
			e->pbase = d2 & 0xfffff000u;
			break;
		default:
			unsupported("a tiny page in a coarse table", l2pa, d2, va, pc);
		}
		break;
	default:
		unsupported("a fine page table", l1pa, d1, va, pc);
	}
	e->vbase = va & e->vmask;
	e->valid = true;
	return true;
}
