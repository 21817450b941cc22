/*
 * ARM semihosting, the calls Lokal makes: exit (SYS_EXIT and
 * SYS_EXIT_EXTENDED, with the status) and console writes.  Arguments are
 * read from memory through the guest's tables, as a debugger would.
 */
#include <string.h>
#include "vemu.h"

#define SYS_WRITEC		0x03
#define SYS_WRITE0		0x04
#define SYS_WRITE		0x05
#define SYS_EXIT		0x18
#define SYS_EXIT_EXTENDED	0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026u

static void put_guest_string(struct vemu *vm, uint32_t va, uint32_t max)
{
	char c;

	while (max-- && guest_read(vm, va++, &c, 1) && c)
		fputc(c, stdout);
}

/* Returns false when the run ended (exit or error). */
bool semihost_call(struct vemu *vm)
{
	uint32_t op = cpu_reg(vm, UC_ARM_REG_R0), arg = cpu_reg(vm, UC_ARM_REG_R1);
	uint32_t blk[3];

	switch (op) {
	case SYS_EXIT:
		vemu_exit(vm, arg == ADP_STOPPED_APPLICATION_EXIT ? 0 : 1);
		return false;
	case SYS_EXIT_EXTENDED:
		if (!guest_read(vm, arg, blk, 8)) {
			vemu_fail(vm, "SYS_EXIT_EXTENDED with an unreadable block at 0x%08x", arg);
			return false;
		}
		vemu_exit(vm, blk[0] == ADP_STOPPED_APPLICATION_EXIT ? (int)blk[1] : 1);
		return false;
	case SYS_WRITEC: {
		char c;

		if (guest_read(vm, arg, &c, 1))
			fputc(c, stdout);
		return true;
	}
	case SYS_WRITE0:
		put_guest_string(vm, arg, 1u << 20);
		return true;
	case SYS_WRITE:
		if (!guest_read(vm, arg, blk, 12)) {
			vemu_fail(vm, "SYS_WRITE with an unreadable block at 0x%08x", arg);
			return false;
		}
		for (uint32_t i = 0; i < blk[2]; i++) {
			char c;

			if (!guest_read(vm, blk[1] + i, &c, 1))
				break;
			fputc(c, blk[0] == 2 ? stderr : stdout);
		}
		cpu_set_reg(vm, UC_ARM_REG_R0, 0);
		return true;
	default:
		vemu_fail(vm, "semihosting call 0x%x is not modelled", op);
		return false;
	}
}
