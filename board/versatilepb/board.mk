# ARM Versatile/PB926EJ-S (QEMU: -M versatilepb).
BOARD_SRCS := board/versatilepb/board.c board/versatilepb/dma.c \
              drivers/pl011.c drivers/irqchip/pl190.c drivers/sp804.c drivers/pl061.c \
              drivers/pl080.c
BOARD_LDSCRIPT := board/versatilepb/lokal.ld
# board_irq.h: the VIC's dispatch inline on every interrupt's path.
BOARD_IRQ_INLINE := yes
# How QEMU runs this board (tools/qemu-run.sh adds the console and image);
# the AACI sound device gets a silent backend so QEMU does not probe host audio.
BOARD_QEMU := qemu-system-arm -M versatilepb -cpu arm926 -m $(RAM_MB)M \
              -audiodev none,id=snd0 -global pl041.audiodev=snd0
# The configuration check-vivt runs the demo in: the default 128 MiB demo
# takes 1.5 G emulated instructions, 64 MiB proves the same paths in a third.
BOARD_VIVT_DEMO_VARS = RAM_MB=64 LOWMEM_MB=16 LAST_PKMAP=16
