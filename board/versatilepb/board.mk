# ARM Versatile/PB926EJ-S (QEMU: -M versatilepb).
BOARD_SRCS := board/versatilepb/board.c \
              drivers/pl011.c drivers/pl190.c drivers/sp804.c drivers/pl061.c \
              drivers/pl080.c
BOARD_LDSCRIPT := board/versatilepb/lokal.ld
# How QEMU runs this board (tools/qemu-run.sh reads it).
BOARD_QEMU := qemu-system-arm -M versatilepb -cpu arm926 -m $(RAM_MB)M
# Limits board/config-check.mk holds the make variables to. QEMU's model
# refuses more than 256 MiB, and highmem's unmapped VA range must end below
# the devices at 0x10000000.
BOARD_RAM_MB_MAX    := 256
BOARD_RAM_MB_WHY    := versatilepb holds at most 256 MiB
# The image with its 4 MiB heap, 1.5 MiB trace buffer and page array ends
# near 7 MiB; 8 leaves the page allocator some lowmem.
BOARD_LOWMEM_MB_MIN := 8
# SP804 at 1 MHz with a 32-bit reload; above 10 kHz the tick starves threads.
BOARD_HZ_MIN        := 1
BOARD_HZ_MAX        := 10000
BOARD_HZ_WHY        := the SP804 tick at 1 MHz; above 10000 ticks starve the threads
