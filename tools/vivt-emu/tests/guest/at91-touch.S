/*
 * One access to an AT91 device address the machine does not model, with
 * the MMU off: vivt-emu --machine at91sam9g20-ek must stop the run naming
 * the block and register (or saying no device is there).  Built with
 * -DADDR=0x... and -DWRITE=0 or 1.  Should the access pass, the program
 * exits 0 by semihosting, which the check counts as a failure.
 */
	.text
	.global	_start
_start:
	ldr	r0, =ADDR
	ldr	r1, =0x00008000
#if WRITE
	str	r1, [r0]
#else
	ldr	r1, [r0]
#endif
	mov	r0, #0x18		@ SYS_EXIT
	ldr	r1, =0x20026		@ ADP_Stopped_ApplicationExit
	svc	0x123456
	b	.
