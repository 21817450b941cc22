/*
 * ASPEED AST2400 device models (AST2400 datasheet; the register sets
 * Lokal's drivers program, as QEMU's ASPEED models have them).
 */
#ifndef VIVT_EMU_ASPEED_H
#define VIVT_EMU_ASPEED_H

#include "hw/devices.h"

/* The VIC's new register set: 64 lines, each level or edge as at reset. */
struct aspeed_vic;
struct aspeed_vic *aspeed_vic_create(struct vemu *vm, uint32_t base);
struct irq_line aspeed_vic_input(struct aspeed_vic *vic, unsigned line);
/* What a write of 1 << line to the software interrupt register does. */
void aspeed_vic_soft_raise(struct aspeed_vic *vic, unsigned line);

/* Timers 1..8, counting down at 1 MHz or PCLK; timer n interrupts on line irq[n-1]. */
void aspeed_timer_create(struct vemu *vm, uint32_t base, uint32_t pclk_hz, const struct irq_line irq[8]);

/* The SCU's clock registers, reading as a 24 MHz CLKIN board whose PCLK is pclk_hz. */
void aspeed_scu_create(struct vemu *vm, uint32_t base, uint32_t pclk_hz);

/* GPIO set ABCD: pins listed in vcd_pins[0..1] go to VCD wires 0 and 1. */
void aspeed_gpio_create(struct vemu *vm, uint32_t base, struct vcd *vcd, const int vcd_pins[2]);

/* Watchdog: a system reset ends the run (status 0), as the AT91's RSTC does. */
void aspeed_wdt_create(struct vemu *vm, uint32_t base);

#endif
