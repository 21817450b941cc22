/*
 * What a board folder (board/<name>/board.c) provides to arch/arm.
 * The board chooses its drivers and wires them to these calls; arch/arm
 * never names a device. A board also implements the time, tick, marker and
 * console-input calls of <lokal/platform.h>.
 */
#ifndef ASM_MACH_H
#define ASM_MACH_H

#include <stdint.h>
#include <generated/config.h>

/* A physical range the boot page table maps uncached and unbuffered. */
struct board_io_region {
	uint32_t base;          /* 1 MiB aligned */
	uint32_t size;          /* multiple of 1 MiB */
};
extern const struct board_io_region board_io_regions[];
extern const unsigned int board_nr_io_regions;

/* Console usable (polled output) after this; runs with the MMU still off. */
void board_early_init(void);
/* Interrupt controller(s) reset with every source masked (MMU on). */
void board_init_irq(void);
/* Everything else: counters, GPIO, console receive interrupt. */
void board_init(void);

/* Polled console output; safe from any context, IRQs on or off. */
void board_console_putc(char c);

/* arch/arm side: count an IRQ that found no source pending. */
void spurious_irq(void);
void board_irq_unmask(unsigned int irq);
void board_irq_mask(unsigned int irq);
/* A line free for software-raised interrupts. */
extern const unsigned int board_soft_irq;

/*
 * On every interrupt's path, so a board may give them as static inlines
 * in its board_irq.h (no call, no second table walk), which its board.mk
 * then declares (BOARD_IRQ_INLINE := yes: CONFIG_BOARD_IRQ_INLINE):
 *  board_handle_irq(): called by the IRQ exception: dispatch every pending
 *      source through generic_handle_irq(); call spurious_irq() if none was;
 *  board_irq_raise_soft(), board_irq_clear_soft(): raise / drop a line
 *      from software (tests, benchmarks; a handler drops its line first).
 */
#if CONFIG_BOARD_IRQ_INLINE
# include <board_irq.h>
#else
void board_handle_irq(void);
void board_irq_raise_soft(unsigned int irq);
void board_irq_clear_soft(unsigned int irq);
#endif

/* arch/arm side: generic_handle_irq(irq) runs the handler registered for
 * irq; it is an inline in <asm/irq_desc.h>. */

#endif
