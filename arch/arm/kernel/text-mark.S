/*
 * One mark in an image's code, assembled once per name (-DMARK=name):
 * the image rule links each mark between the groups of objects it
 * separates, and ld keeps the input files' order inside .text, so the
 * marks bound the scheduler's code (__sched_text_begin/end) and the
 * application's (__app_text_begin/end). vivt-emu's interrupts-off report
 * reads them to tell whose code an instruction is. A word of its own, so
 * no function shares its address.
 */
	.section .text.MARK, "a", %progbits
	.global MARK
	.type MARK, %object
	.size MARK, 4
MARK:
	.word 0
