# Atmel AT91SAM9G20-EK. UNTESTED ON HARDWARE (see board/README.md).
BOARD_SRCS := board/at91sam9g20-ek/board.c board/at91sam9g20-ek/sys-pages.c \
              drivers/atmel_aic.c drivers/atmel_dbgu.c drivers/atmel_pit.c \
              drivers/atmel_tcb.c drivers/atmel_pio.c drivers/atmel_dbgu_pdc.c
BOARD_LDSCRIPT := board/at91sam9g20-ek/lokal.ld
BOARD_OPENOCD_CFG := board/at91sam9g20-ek/openocd.cfg
# The EK has 64 MiB: use that unless RAM_MB was given on the command line
# or in the environment (the Makefile's default is versatilepb's 128).
ifeq ($(origin RAM_MB),file)
RAM_MB := 64
endif
# Limits board/config-check.mk holds the make variables to (see
# board/versatilepb/board.mk for the lowmem minimum).
BOARD_RAM_MB_MAX    := 64
BOARD_RAM_MB_WHY    := the AT91SAM9G20-EK carries 64 MiB of SDRAM
BOARD_LOWMEM_MB_MIN := 8
# The PIT counts MCK/16 = 8.256 MHz into a 20-bit period: 8 Hz is the slowest.
BOARD_HZ_MIN        := 8
BOARD_HZ_MAX        := 10000
BOARD_HZ_WHY        := the PIT's 20-bit period at 8.256 MHz; above 10000 ticks starve the threads
