/* Atmel TC block (three 16-bit timer/counter channels), AT91SAM9 family. */
#ifndef DRIVERS_ATMEL_TCB_H
#define DRIVERS_ATMEL_TCB_H

#include <stdint.h>

/* Channel input clocks (TCCLKS): MCK/2, /8, /32, /128, slow clock. */
#define TCB_CLK_MCK_DIV2    0
#define TCB_CLK_MCK_DIV8    1
#define TCB_CLK_MCK_DIV32   2
#define TCB_CLK_MCK_DIV128  3
#define TCB_CLK_SLOW        4

/*
 * Chain channels 0 and 1 into one free-running 32-bit up-counter: channel 0
 * counts the input clock clk and toggles TIOA0 once per wrap, channel 1
 * counts TIOA0. Interrupts of both channels stay off.
 */
void atmel_tcb_counter32_start(uintptr_t base, unsigned int clk);
/* The 32-bit count; consistent even when channel 0 wraps during the read. */
uint32_t atmel_tcb_counter32_read(uintptr_t base);

/* One-shot on channel ch: one interrupt after ticks (1..65535) of clk. */
void atmel_tcb_oneshot(uintptr_t base, unsigned int ch, unsigned int clk, uint16_t ticks);
/* Acknowledge channel ch's interrupt (reads its status). */
void atmel_tcb_ack(uintptr_t base, unsigned int ch);

#endif
