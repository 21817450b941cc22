/*
 * The VIC's dispatch and software lines as inlines, for arch/arm (see
 * asm/mach.h): they are on every interrupt's path to the thread it wakes
 * (irq_to_woken_thread_ns, events_interrupt in results.json).
 */
#ifndef BOARD_IRQ_H
#define BOARD_IRQ_H

#include <stdint.h>
#include <drivers/pl190.h>
#include <board.h>

static inline void board_irq_raise_soft(unsigned int irq)
{
	pl190_soft_raise(BOARD_VIC_BASE, irq);
}

static inline void board_irq_clear_soft(unsigned int irq)
{
	pl190_soft_clear(BOARD_VIC_BASE, irq);
}

/* After the two above: <lokal/irq.h>, which it includes, inlines them. */
#include <asm/irq_desc.h>

_Static_assert(BOARD_NR_IRQS >= 32, "every VIC status bit is a line of irq_descs");

/*
 * The highest line pending (the VIC has no order of its own), one per
 * entry: a line still asserted keeps the IRQ input asserted, so the
 * vector is taken again at the return (or at the exit's window before a
 * switch), and each interrupt's handler window is its own
 * (irqs_off_handler_kernel_max_insns).
 */
static inline void board_handle_irq(void)
{
	uint32_t pending = pl190_pending(BOARD_VIC_BASE);

	if (__builtin_expect(pending == 0, 0)) {
		spurious_irq();
		return;
	}
	__generic_handle_irq(31u - (unsigned int)__builtin_clz(pending));     /* < 32: in range */
}

#endif
