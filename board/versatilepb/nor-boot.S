/*
 * NOR boot stub for the Versatile/PB926EJ-S: the first code the CPU runs
 * after reset once `make flash` has written nor.bin at the base of NOR.
 *
 * At reset the boot memory (NOR) is aliased at address 0, so this starts
 * at 0 and continues at its real address before clearing the remap (which
 * puts SDRAM back at 0 and would otherwise pull the code from under us).
 * It then copies the Lokal image, assembled in right behind it with
 * .incbin, to the address the image is linked at, and jumps to its entry.
 * head.S turns caches and MMU off again, so nothing here depends on them.
 *
 * Built by tools/board-flow.mk, linked at the NOR base:
 *   -DIMAGE="lokal.bin" -DLOAD_ADDR=0x... -DENTRY=0x...
 */
#define MODE_SVC        0x13
#define PSR_I_F         0xc0
#define SCCTRL          0x101e0000      /* SP810 system controller */
#define SCCTRL_REMAPCLR (1 << 8)        /* write 1: SDRAM at 0, not NOR */

	.syntax unified
	.section .text.norboot, "ax"
	.arm
	.global _nor_start
_nor_start:
	/* A literal load is pc-relative: works from the alias at 0 too. */
	ldr	pc, =1f
1:	msr	cpsr_c, #(MODE_SVC | PSR_I_F)

	ldr	r0, =SCCTRL
	ldr	r1, [r0]
	orr	r1, r1, #SCCTRL_REMAPCLR
	str	r1, [r0]

	ldr	r0, =image_start     /* absolute: we run at the link address now */
	ldr	r2, =image_end
	ldr	r1, =LOAD_ADDR
2:	cmp	r0, r2                  /* the image is padded to 16 bytes */
	ldmialo	r0!, {r3-r6}
	stmialo	r1!, {r3-r6}
	blo	2b

	ldr	pc, =ENTRY
	.ltorg

	.balign	16
image_start:
	.incbin	IMAGE
	.balign	16
image_end:
