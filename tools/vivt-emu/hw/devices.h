/*
 * Device models a machine can instantiate.  Each takes its base address
 * and the interrupt line it drives; a machine wires them in its init.
 */
#ifndef VIVT_EMU_DEVICES_H
#define VIVT_EMU_DEVICES_H

#include "vemu.h"

struct pl190;
struct pl190 *pl190_create(struct vemu *vm, uint32_t base);
/* The VIC input `line`. */
struct irq_line pl190_input(struct pl190 *vic, unsigned line);
/* What a write of 1 << line to VICSOFTINT does. */
void pl190_soft_raise(struct pl190 *vic, unsigned line);

struct versatile_sic;
struct versatile_sic *sic_create(struct vemu *vm, uint32_t base, struct irq_line out);
struct irq_line sic_input(struct versatile_sic *sic, unsigned line);

/* Both timers of one SP804, counting at clk_hz; one IRQ output for both. */
void sp804_create(struct vemu *vm, uint32_t base, uint32_t clk_hz, struct irq_line irq);

/*
 * uart_rx.c: a UART's receive FIFO, fed from the run's input at the line's
 * pace. The device fills in dev and the three callbacks, then calls
 * uart_rx_init(); it reads the FIFO with uart_rx_pop() (-1 when empty),
 * and uart_rx_overrun() says (once) that a byte was lost since the last
 * call: with --input-line, one that found the FIFO full.
 */
#define UART_RX_MAX	32
struct uart_rx {
	void *dev;
	bool (*listening)(void *dev);		/* receiver and its interrupt on */
	uint64_t (*char_ns)(void *dev);		/* a character's time at the rate set; 0: none set */
	void (*changed)(void *dev);		/* bytes came in: update the interrupt */
	struct vemu *vm;
	int fd;					/* -1 once the input has ended */
	uint8_t fifo[UART_RX_MAX];
	unsigned depth, head, count;
	bool line;				/* --input-line */
	bool started;				/* line: the driver has listened once */
	bool overrun;				/* line: a byte was lost */
	struct event ev;
};
void uart_rx_init(struct vemu *vm, struct uart_rx *rx, const char *input, unsigned depth);
int uart_rx_pop(struct uart_rx *rx);
bool uart_rx_overrun(struct uart_rx *rx);

/* UART: TX to stdout, RX from `input` (path, or NULL for stdin). */
void pl011_create(struct vemu *vm, uint32_t base, struct irq_line irq, const char *input);

/* 16550 UART, registers at 4-byte steps, clocked at uartclk: TX to stdout, RX from `input`. */
void ns16550_create(struct vemu *vm, uint32_t base, uint32_t uartclk, struct irq_line irq, const char *input);

/* GPIO: output pin edges go to the VCD writer when `vcd` is non-NULL. */
struct vcd;
void pl061_create(struct vemu *vm, uint32_t base, struct irq_line irq, struct vcd *vcd);

/* DMA controller: memory-to-memory linked-list transfers, a bus master on RAM. */
void pl080_create(struct vemu *vm, uint32_t base, struct irq_line irq);

/* Versatile system registers with the 24 MHz counter; the SP810 beside it. */
void versatile_sysctl_create(struct vemu *vm, uint32_t base);
void sp810_create(struct vemu *vm, uint32_t base);

/* vcd.c: a virtual logic analyzer on named wires, timescale 1 ns. */
struct vcd *vcd_open(const char *path, const char *const *names, unsigned n);
void vcd_change(struct vcd *v, unsigned wire, int level, uint64_t ns);
void vcd_close(struct vcd *v);
/* The line `to`, its level also recorded on wire `wire` (just `to` without a VCD). */
struct irq_line vcd_irq_tap(struct vemu *vm, struct vcd *v, unsigned wire, struct irq_line to);

#endif
