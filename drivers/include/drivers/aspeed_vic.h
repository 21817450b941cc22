/*
 * ASPEED AST2400 interrupt controller (VIC), its "new" register set (the
 * one Linux uses): 64 lines in low/high register pairs, set/clear
 * registers for enable and software interrupts, an edge-clear register
 * for the lines whose sense register says edge.
 */
#ifndef DRIVERS_ASPEED_VIC_H
#define DRIVERS_ASPEED_VIC_H

#include <stdint.h>
#include <drivers/mmio.h>

/* Offsets from the controller's base (0x80 past the legacy set). */
#define ASPEED_VIC_IRQ_STATUS   0x80    /* +4: lines 32..63 */
#define ASPEED_VIC_EDGE_CLR     0xd8

/*
 * Mask every line, drop software interrupts, route every line to IRQ, and
 * remember which lines are edge-triggered (read from the sense register,
 * which boot firmware or the reset value sets).
 */
void aspeed_vic_init(uintptr_t base);
void aspeed_vic_unmask(uintptr_t base, unsigned int irq);
void aspeed_vic_mask(uintptr_t base, unsigned int irq);
/* 1 when line irq is edge-triggered (its handler's latch is cleared by the ack). */
int aspeed_vic_is_edge(unsigned int irq);

/* Lines asserted and unmasked: word 0 is lines 0..31, word 1 lines 32..63. */
static inline uint32_t aspeed_vic_pending(uintptr_t base, unsigned int word)
{
	return mmio_read32(base + ASPEED_VIC_IRQ_STATUS + 4 * word);
}
/* Clear an edge-triggered line's latch (a no-op for a level line). */
static inline void aspeed_vic_edge_ack(uintptr_t base, unsigned int irq)
{
	mmio_write32(base + ASPEED_VIC_EDGE_CLR + 4 * (irq >> 5), 1u << (irq & 31));
}

/* Software interrupt set and clear. */
void aspeed_vic_soft_raise(uintptr_t base, unsigned int irq);
void aspeed_vic_soft_clear(uintptr_t base, unsigned int irq);
/*
 * 1 if the software interrupt register holds a bit written to it (read
 * back, then cleared). QEMU 7.2's model has no software interrupts: the
 * write is dropped and the register reads 0.
 */
int aspeed_vic_soft_works(uintptr_t base, unsigned int irq);

#endif
