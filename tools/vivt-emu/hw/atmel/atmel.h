/*
 * The AT91SAM9G20 device models (machine/at91sam9g20ek.c wires them).
 * Register layouts and behaviour follow the AT91SAM9G20 datasheet; where
 * it leaves something open, the model's choice is written down in the
 * model's own file.
 */
#ifndef VIVT_EMU_DEV_ATMEL_H
#define VIVT_EMU_DEV_ATMEL_H

#include "hw/devices.h"

/* The master clock AT91Bootstrap leaves running (board.h's BOARD_MCK_HZ). */
#define AT91_MCK_HZ	132096000u

/* AIC: 32 sources; the output is the CPU's nIRQ. */
struct atmel_aic;
struct atmel_aic *atmel_aic_create(struct vemu *vm, uint32_t base);
struct irq_line atmel_aic_input(struct atmel_aic *aic, unsigned source);

/*
 * The system interrupt (AIC source 1) is a wired OR of the PIT, the DBGU
 * and the other system peripherals: each drives its own input of it.
 */
struct atmel_sysirq;
struct atmel_sysirq *atmel_sysirq_create(struct irq_line out);
struct irq_line atmel_sysirq_input(struct atmel_sysirq *s, unsigned n);

/* PMC: the peripheral clock gates the TC model checks. */
struct atmel_pmc;
struct atmel_pmc *atmel_pmc_create(struct vemu *vm, uint32_t base);
bool atmel_pmc_periph_on(const struct atmel_pmc *pmc, unsigned id);

void atmel_dbgu_create(struct vemu *vm, uint32_t base, struct irq_line irq, const char *input);
void atmel_pit_create(struct vemu *vm, uint32_t base, struct irq_line irq);
/* TC0..TC2 with their AIC lines; pmc_id0 is TC0's peripheral id. */
void atmel_tcb_create(struct vemu *vm, uint32_t base, const struct irq_line irq[3],
		      const struct atmel_pmc *pmc, unsigned pmc_id0);
/* A PIO controller; pins listed in vcd_pins[0..1] go to VCD wires 0 and 1. */
void atmel_pio_create(struct vemu *vm, uint32_t base, const char *name, struct vcd *vcd,
		      const int vcd_pins[2]);
/* Reset controller: a reset request ends the run with status 0. */
void atmel_rstc_create(struct vemu *vm, uint32_t base);
/* A register window the model names but does not model: any access stops the run. */
void atmel_unmodelled_create(struct vemu *vm, uint32_t base, uint32_t size, const char *name);

#endif
