# Atmel AT91SAM9G20-EK. UNTESTED ON HARDWARE (see board/README.md).
BOARD_SRCS := board/at91sam9g20-ek/board.c board/at91sam9g20-ek/sys-pages.c \
              drivers/atmel_aic.c drivers/atmel_dbgu.c drivers/atmel_pit.c \
              drivers/atmel_tcb.c drivers/atmel_pio.c drivers/atmel_dbgu_pdc.c
BOARD_LDSCRIPT := board/at91sam9g20-ek/lokal.ld
BOARD_OPENOCD_CFG := board/at91sam9g20-ek/openocd.cfg
