/*
 * ASPEED AST2400 as the OpenPOWER Palmetto BMC carries it, and as Lokal
 * uses it (board/ast2400-palmetto/board.h; QEMU's palmetto-bmc): which
 * model sits at which address on which VIC line. The XDMA engine is not
 * modelled: with the VIC's software interrupts working, the firmware
 * never touches it.
 */
#include <stdlib.h>
#include "hw/aspeed/aspeed.h"

#define PCLK_HZ		24000000u	/* QEMU's palmetto-bmc PCLK too */
#define UART_CLK_HZ	1846153u	/* 24 MHz / 13 */

static struct aspeed_vic *the_vic;

/* The guest's irq_raise_soft(): the VIC's software interrupt register. */
static void raise_soft(struct vemu *vm, unsigned line)
{
	(void)vm;
	aspeed_vic_soft_raise(the_vic, line);
}

/*
 * The boot flash's window at 0 (the FMC maps CS0 there): Lokal leaves it
 * alone, so its contents are not modelled, but Unicorn must find something
 * at those addresses to let the guest's MMU, not Unicorn, answer a NULL
 * dereference (a translation fault: Lokal maps nothing below its RAM at
 * 0x40000000).
 */
static void map_boot_window(struct vemu *vm)
{
	uc_err err = uc_mem_map(vm->uc, 0, 0x00400000u, UC_PROT_ALL);

	if (err != UC_ERR_OK) {
		fprintf(stderr, "vivt-emu: cannot map the AST2400 boot window: %s\n", uc_strerror(err));
		exit(1);
	}
}

static void ast2400_init(struct vemu *vm)
{
	/* The marker pins (GPIOA0, A1), and the one-shot timer's line (timer 2) as cyclic sees it. */
	static const char *const markers[] = { "switch", "wake", "timer" };
	static const int marker_pins[2] = { 0, 1 };
	/* Timers 1..3 on lines 16..18, 4..8 on 35..39. */
	static const unsigned timer_lines[8] = { 16, 17, 18, 35, 36, 37, 38, 39 };
	struct vcd *vcd = vm->opt.vcd ? vcd_open(vm->opt.vcd, markers, 3) : NULL;
	struct aspeed_vic *vic = aspeed_vic_create(vm, 0x1e6c0000u);
	struct irq_line timer_irq[8];

	map_boot_window(vm);
	for (unsigned i = 0; i < 8; i++)
		timer_irq[i] = aspeed_vic_input(vic, timer_lines[i]);
	timer_irq[1] = vcd_irq_tap(vm, vcd, 2, timer_irq[1]);
	aspeed_scu_create(vm, 0x1e6e2000u, PCLK_HZ);
	aspeed_gpio_create(vm, 0x1e780000u, vcd, marker_pins);
	aspeed_timer_create(vm, 0x1e782000u, PCLK_HZ, timer_irq);
	ns16550_create(vm, 0x1e784000u, UART_CLK_HZ, aspeed_vic_input(vic, 10), vm->opt.input);
	aspeed_wdt_create(vm, 0x1e785000u);
	the_vic = vic;
	vm->soft_irq_raise = raise_soft;
}

static const struct machine_desc machine_ast2400 = {
	.name = "ast2400-palmetto",
	.ram_base = 0x40000000u,
	.ram_max_mb = 512,
	.mmio_base = 0x1e600000u,
	.mmio_size = 0x00200000u,
	.init = ast2400_init,
};
MACHINE_REGISTER(machine_ast2400);
