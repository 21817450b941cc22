/*
 * ARM Versatile/PB926EJ-S as Lokal uses it (board/versatilepb/board.h and
 * QEMU's versatilepb): which model sits at which address on which line.
 */
#include "hw/devices.h"

static struct pl190 *the_vic;

/* The guest's irq_raise_soft(): VICSOFTINT (board_irq.h). */
static void raise_soft(struct vemu *vm, unsigned line)
{
	(void)vm;
	pl190_soft_raise(the_vic, line);
}

static void versatilepb_init(struct vemu *vm)
{
	/*
	 * The marker pins, the one-shot timer's line (SP804 timers 2-3) as
	 * cyclic sees it, and the other interrupt lines a wake-up can wait
	 * behind: the tick's (timers 0-1), the UART's and the PL080's.
	 */
	static const char *const markers[] = { "switch", "wake", "timer", "tick", "uart", "dma" };
	struct pl190 *vic = pl190_create(vm, 0x10140000u);
	struct vcd *vcd = vm->opt.vcd ? vcd_open(vm->opt.vcd, markers, 6) : NULL;

	versatile_sysctl_create(vm, 0x10000000u);
	sic_create(vm, 0x10003000u, pl190_input(vic, 31));
	sp810_create(vm, 0x101e0000u);
	sp804_create(vm, 0x101e2000u, 1000000u, vcd_irq_tap(vm, vcd, 3, pl190_input(vic, 4)));
	sp804_create(vm, 0x101e3000u, 1000000u, vcd_irq_tap(vm, vcd, 2, pl190_input(vic, 5)));
	pl061_create(vm, 0x101e4000u, pl190_input(vic, 6), vcd);
	pl061_create(vm, 0x101e5000u, pl190_input(vic, 7), NULL);
	pl061_create(vm, 0x101e6000u, pl190_input(vic, 8), NULL);
	pl061_create(vm, 0x101e7000u, pl190_input(vic, 9), NULL);
	pl011_create(vm, 0x101f1000u, vcd_irq_tap(vm, vcd, 4, pl190_input(vic, 12)), vm->opt.input);
	pl080_create(vm, 0x10130000u, vcd_irq_tap(vm, vcd, 5, pl190_input(vic, 17)));
	the_vic = vic;
	vm->soft_irq_raise = raise_soft;
}

static const struct machine_desc machine_versatilepb = {
	.name = "versatilepb",
	.ram_base = 0,
	.ram_max_mb = 256,
	.mmio_base = 0x10000000u,
	.mmio_size = 0x00200000u,
	.flash_base = 0x34000000u,
	.flash_size = 0x04000000u,
	.init = versatilepb_init,
};
MACHINE_REGISTER(machine_versatilepb);
