/*
 * The guest's translation as the machine needs it: which fault an abort
 * was (Unicorn 2.0.1 enters no FAR/FSR for us) and reading guest memory by
 * virtual address for semihosting and reports.  Reads the tables from RAM,
 * like the ARM926 walker; it has no TLB, so it sees the tables as they are.
 */
#include <string.h>
#include "vemu.h"

static bool phys_read32(struct vemu *vm, uint32_t pa, uint32_t *val)
{
	uint32_t off = pa - vm->mach->ram_base;

	if (pa < vm->mach->ram_base || off > vm->ram_size - 4)
		return false;
	memcpy(val, vm->ram + off, 4);
	return true;
}

/* ARMv5 access permissions for privileged code: AP 0 follows S/R. */
static bool ap_allows(uint32_t sctlr, unsigned ap, bool write)
{
	if (ap)
		return true;
	if (write)
		return false;
	return (sctlr & (3u << 8)) != 0;
}

uint32_t mmu_probe(struct vemu *vm, uint32_t va, bool write, uint32_t *pa)
{
	uint32_t sctlr = cpu_cp15(vm, 1, 0, 0, 0);
	uint32_t ttb = cpu_cp15(vm, 2, 0, 0, 0) & 0xffffc000u;
	uint32_t dacr = cpu_cp15(vm, 3, 0, 0, 0);
	uint32_t l1, l2 = 0, dom;
	unsigned ap, dperm;
	bool page = false;

	if (!(sctlr & 1)) {
		*pa = va;
		return 0;
	}
	if (!phys_read32(vm, ttb | (va >> 20) << 2, &l1))
		return 0x5;	/* the walk itself has nowhere to read: call it untranslated */
	dom = l1 >> 5 & 15;
	switch (l1 & 3) {
	case 0:
		return 0x5;
	case 2:
		*pa = (l1 & 0xfff00000u) | (va & 0x000fffffu);
		ap = l1 >> 10 & 3;
		break;
	default:
		page = true;
		if ((l1 & 3) == 1) {
			if (!phys_read32(vm, (l1 & 0xfffffc00u) | (va >> 12 & 0xff) << 2, &l2))
				return 0x7 | dom << 4;
		} else if (!phys_read32(vm, (l1 & 0xfffff000u) | (va >> 10 & 0x3ff) << 2, &l2)) {
			return 0x7 | dom << 4;
		}
		switch (l2 & 3) {
		case 0:
			return 0x7 | dom << 4;
		case 1:
			*pa = (l2 & 0xffff0000u) | (va & 0xffff);
			ap = l2 >> (4 + 2 * (va >> 14 & 3)) & 3;
			break;
		case 2:
			*pa = (l2 & 0xfffff000u) | (va & 0xfff);
			ap = l2 >> (4 + 2 * (va >> 10 & 3)) & 3;
			break;
		default:
			*pa = (l2 & 0xfffffc00u) | (va & 0x3ff);
			ap = l2 >> 4 & 3;
			break;
		}
	}
	dperm = dacr >> (2 * dom) & 3;
	if (dperm == 0 || dperm == 2)
		return (page ? 0xb : 0x9) | dom << 4;
	if (dperm == 1 && !ap_allows(sctlr, ap, write))
		return (page ? 0xf : 0xd) | dom << 4;
	return 0;
}

bool guest_read(struct vemu *vm, uint32_t va, void *buf, uint32_t len)
{
	uint8_t *out = buf;

	while (len) {
		uint32_t pa, chunk = 0x400 - (va & 0x3ff);

		if (chunk > len)
			chunk = len;
		if (mmu_probe(vm, va, false, &pa))
			return false;
		if (vm->flash && pa >= vm->mach->flash_base && pa - vm->mach->flash_base < vm->mach->flash_size
		    && pa - vm->mach->flash_base + chunk <= vm->mach->flash_size)
			memcpy(out, vm->flash + (pa - vm->mach->flash_base), chunk);
		else if (pa >= vm->mach->ram_base && pa - vm->mach->ram_base + chunk <= vm->ram_size)
			memcpy(out, vm->ram + (pa - vm->mach->ram_base), chunk);
		else
			return false;
		out += chunk;
		va += chunk;
		len -= chunk;
	}
	return true;
}

bool guest_pcpu_hot_field(struct vemu *vm, unsigned int i, uint32_t *addr)
{
	uint32_t base, offs, off;

	if (!symbols_find(vm->syms, "pcpu_hot", &base) || !symbols_find(vm->syms, "pcpu_hot_offsets", &offs)
	    || !guest_read(vm, offs + 4 * i, &off, 4))
		return false;
	*addr = base + off;
	return true;
}
