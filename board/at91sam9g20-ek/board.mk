# Atmel AT91SAM9G20-EK. UNTESTED ON HARDWARE (see board/README.md).
BOARD_SRCS := board/at91sam9g20-ek/board.c board/at91sam9g20-ek/sys-pages.c \
              drivers/irqchip/atmel_aic.c drivers/atmel_dbgu.c drivers/atmel_pit.c \
              drivers/atmel_tcb.c drivers/atmel_pio.c drivers/atmel_dbgu_pdc.c
BOARD_LDSCRIPT := board/at91sam9g20-ek/lokal.ld
BOARD_OPENOCD_CFG := board/at91sam9g20-ek/openocd.cfg
# What check-vivt-at91sam9g20-ek's demo run must print besides the data verification:
# the DMA phase, the DBGU's PDC sending lines written in highmem pages.
BOARD_VIVT_DEMO_EXPECT = demo: DMA: line 6, written .* sent by the DBGU.s PDC && demo: DMA verification: 0 of 6
