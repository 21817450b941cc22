/* Atmel AIC (Advanced Interrupt Controller), AT91SAM9 family, used non-vectored. */
#ifndef DRIVERS_ATMEL_AIC_H
#define DRIVERS_ATMEL_AIC_H

#include <stdint.h>

#define AIC_NR_SOURCES  32
/* Returned by atmel_aic_ack() when nothing is pending (spurious). */
#define AIC_NO_IRQ      (-1)

/*
 * Mask and clear every source, make every line a lowest-priority,
 * high-level/positive-edge IRQ (edge for those in edge_mask), and end any
 * interrupt a previous owner left in service.
 */
void atmel_aic_init(uintptr_t base, uint32_t edge_mask);
/* Acknowledge the highest-priority pending source and return its number,
 * or AIC_NO_IRQ; either way atmel_aic_eoi() must follow. */
int atmel_aic_ack(uintptr_t base);
/* End of interrupt: lets the AIC deliver the next one. */
void atmel_aic_eoi(uintptr_t base);
void atmel_aic_unmask(uintptr_t base, unsigned int irq);
void atmel_aic_mask(uintptr_t base, unsigned int irq);
/* Make an edge-triggered source pending / not pending from software. */
void atmel_aic_set(uintptr_t base, unsigned int irq);
void atmel_aic_clear(uintptr_t base, unsigned int irq);

#endif
