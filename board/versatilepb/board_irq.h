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

static inline void board_handle_irq(void)
{
	uint32_t pending = pl190_pending(BOARD_VIC_BASE);

	if (__builtin_expect(pending == 0, 0)) {
		spurious_irq();
		return;
	}
	/*
	 * Each line pending at the first read, the highest first (two
	 * instructions; the VIC has no order of its own). One asserted since
	 * keeps the IRQ input asserted: the vector is taken again at return.
	 */
	do {
		unsigned int irq = 31u - (unsigned int)__builtin_clz(pending);

		__generic_handle_irq(irq);      /* < 32: in range */
		pending &= ~(1u << irq);
	} while (pending != 0);
}

#endif
