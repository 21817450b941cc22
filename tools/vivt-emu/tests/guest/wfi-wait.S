/*
 * WFI with IRQs masked in CPSR on the versatilepb, for vivt-emu's halt
 * detection (tests/cli.sh).  Built with -DWAIT=n:
 *  1  a periodic SP804 interrupt enabled at the VIC, then the halt loop
 *     around WFI: each wake leaves the IRQ pending and never takes it, so
 *     the emulator must call it a halt;
 *  2  nothing enabled, the same loop: nothing could ever wake the core, a
 *     halt too;
 *  3  the UART's receive interrupt enabled, one WFI: the core waits for a
 *     byte of input, however long that takes, and exits (semihosting)
 *     with that byte as its status.
 * The MMU stays off: every access goes straight to the devices.
 */
#define VIC_ENABLE	0x10140010
#define TIMER0		0x101e2000
#define UART0		0x101f1000

	.text
	.global	_start
_start:
	ldr	sp, =0x8000
#if WAIT == 1
	ldr	r0, =VIC_ENABLE
	mov	r1, #1 << 4		@ SP804 timer 0-1
	str	r1, [r0]
	ldr	r0, =TIMER0
	ldr	r1, =10000		@ 10 ms at 1 MHz
	str	r1, [r0, #0x00]		@ LOAD
	mov	r1, #0xe2		@ enable, periodic, interrupt, 32-bit
	str	r1, [r0, #0x08]
#endif
#if WAIT == 3
	ldr	r0, =VIC_ENABLE
	mov	r1, #1 << 12		@ UART0
	str	r1, [r0]
	ldr	r0, =UART0
	ldr	r1, =0x301		@ UARTEN, TXE, RXE
	str	r1, [r0, #0x30]
	mov	r1, #0x50		@ RX and RT interrupts
	str	r1, [r0, #0x38]
	mov	r2, #0
	mcr	p15, 0, r2, c7, c0, 4	@ wait for interrupt
	ldr	r1, [r0]		@ the byte that woke it
	and	r1, r1, #0xff
	ldr	r2, =0x20026		@ ADP_Stopped_ApplicationExit
	stmfd	sp!, {r1}
	stmfd	sp!, {r2}
	mov	r1, sp
	mov	r0, #0x20		@ SYS_EXIT_EXTENDED
	svc	0x123456
#endif
	mov	r2, #0
halt:	mcr	p15, 0, r2, c7, c0, 4	@ wait for interrupt
	b	halt
