/*
 * ASPEED AST2400 XDMA engine, used only for its completion interrupt: a
 * line software can raise and drop, where the VIC's own software
 * interrupts are missing (QEMU 7.2's VIC drops them). QEMU's XDMA model
 * moves no data: a write of the command queue's write pointer completes
 * at once and raises the line (level) until the status bit is cleared.
 * On silicon the same write would start the engine on the queue, so a
 * board uses this only where aspeed_vic_soft_works() says no.
 */
#ifndef DRIVERS_ASPEED_XDMA_H
#define DRIVERS_ASPEED_XDMA_H

#include <stdint.h>

/* Completion interrupt enabled, its status clear. */
void aspeed_xdma_irq_init(uintptr_t base);
void aspeed_xdma_irq_raise(uintptr_t base);
void aspeed_xdma_irq_clear(uintptr_t base);

#endif
