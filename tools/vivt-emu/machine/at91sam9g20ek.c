/*
 * Atmel AT91SAM9G20-EK as Lokal uses it (board/at91sam9g20-ek/board.h and
 * the AT91SAM9G20 datasheet's memory map): 64 MiB of SDRAM on EBI CS1 at
 * 0x20000000, the TC block at 0xFFFA0000 and the system controller in the
 * top 8 KiB, each model on its AIC source.  The PIT and the DBGU share the
 * system interrupt (source 1).  MCK is what AT91Bootstrap sets
 * (AT91_MCK_HZ); the boot loader, the clocks and the watchdog (the boot
 * loader disables it) are outside the model.
 */
#include <stdlib.h>
#include "hw/atmel/atmel.h"

enum { ID_SYS = 1, ID_TC0 = 17 };

/*
 * The internal memories (boot area at 0, ROM at 1 MiB, SRAM0/1 at 2 and
 * 3 MiB): Lokal leaves them alone, so their contents are not modelled,
 * but Unicorn must find something at those addresses to let the guest's
 * MMU, not Unicorn, answer a NULL dereference (a translation fault there:
 * Lokal maps nothing below its RAM at 0x20000000).
 */
static void map_internal_memory(struct vemu *vm)
{
	uc_err err = uc_mem_map(vm->uc, 0, 0x00400000u, UC_PROT_ALL);

	if (err != UC_ERR_OK) {
		fprintf(stderr, "vivt-emu: cannot map the AT91 internal memory: %s\n", uc_strerror(err));
		exit(1);
	}
}

static void at91_init(struct vemu *vm)
{
	/* The marker pins, and the one-shot timer's line (TC2) as cyclic sees it. */
	static const char *const markers[] = { "switch", "wake", "timer" };
	static const int marker_pins[2] = { 6, 7 };	/* PA6, PA7 */
	struct vcd *vcd = vm->opt.vcd ? vcd_open(vm->opt.vcd, markers, 3) : NULL;
	struct atmel_aic *aic = atmel_aic_create(vm, 0xfffff000u);
	struct atmel_sysirq *sys = atmel_sysirq_create(atmel_aic_input(aic, ID_SYS));
	struct atmel_pmc *pmc = atmel_pmc_create(vm, 0xfffffc00u);
	struct irq_line tc_irq[3];

	map_internal_memory(vm);
	for (unsigned i = 0; i < 3; i++)
		tc_irq[i] = atmel_aic_input(aic, ID_TC0 + i);
	tc_irq[2] = vcd_irq_tap(vm, vcd, 2, tc_irq[2]);
	atmel_tcb_create(vm, 0xfffa0000u, tc_irq, pmc, ID_TC0);
	atmel_dbgu_create(vm, 0xfffff200u, atmel_sysirq_input(sys, 1), vm->opt.input);
	atmel_pio_create(vm, 0xfffff400u, "PIOA", vcd, marker_pins);
	atmel_pio_create(vm, 0xfffff600u, "PIOB", NULL, NULL);
	atmel_pio_create(vm, 0xfffff800u, "PIOC", NULL, NULL);
	atmel_rstc_create(vm, 0xfffffd00u);
	atmel_pit_create(vm, 0xfffffd30u, atmel_sysirq_input(sys, 0));
	atmel_unmodelled_create(vm, 0xffffe800u, 0x200, "ECC");
	atmel_unmodelled_create(vm, 0xffffea00u, 0x200, "SDRAMC");
	atmel_unmodelled_create(vm, 0xffffec00u, 0x200, "SMC");
	atmel_unmodelled_create(vm, 0xffffee00u, 0x200, "MATRIX");
	atmel_unmodelled_create(vm, 0xfffffd10u, 0x10, "SHDWC");
	atmel_unmodelled_create(vm, 0xfffffd20u, 0x10, "RTT");
	atmel_unmodelled_create(vm, 0xfffffd40u, 0x10, "WDT");
	atmel_unmodelled_create(vm, 0xfffffd50u, 0x10, "GPBR");
}

static const struct machine_desc machine_at91sam9g20ek = {
	.name = "at91sam9g20-ek",
	.ram_base = 0x20000000u,
	.ram_max_mb = 64,
	/* Two windows: the vector page between them must stay executable. */
	.mmio_base = 0xfffa0000u,	/* TC block (and the peripherals after it) */
	.mmio_size = 0x00010000u,
	.mmio2_base = 0xffffe000u,	/* system controller */
	.mmio2_size = 0x00002000u,
	.init = at91_init,
};
MACHINE_REGISTER(machine_at91sam9g20ek);
