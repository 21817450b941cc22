/*
 * Atmel AT91SAM9G20-EK (ARM926EJ-S at 396 MHz, 64 MiB SDRAM).
 * UNTESTED ON HARDWARE: addresses from the AT91SAM9G20 datasheet memory map
 * (the same peripheral map as the AT91SAM9260); see board/README.md.
 *
 * Every address, IRQ line and clock a driver or the arch glue needs comes
 * from here, as for versatilepb.
 */
#ifndef BOARD_AT91SAM9G20_EK_H
#define BOARD_AT91SAM9G20_EK_H

#define BOARD_NAME              "at91sam9g20-ek"
#define BOARD_RAM_BASE          0x20000000u   /* SDRAM on EBI CS1 */
#define BOARD_RAM_MAX_MB        64            /* what the EK carries */

/*
 * Devices. The system controller (AIC, DBGU, PIO, PMC, PIT, ...) lives in
 * the top 8 KiB of the address space and the TC block at 0xFFFA0000: both
 * inside the MiB that Lokal's fixmap coarse table and the high vector page
 * occupy, where a 1 MiB identity section cannot go. board.c maps exactly
 * these pages, identity and uncached, into the fixmap table instead (see
 * board_map_sys_pages() there), at slots the kmap_local code never uses.
 */
#define BOARD_SYS_PAGE0         0xffffe000u   /* SDRAMC, SMC, MATRIX, ... */
#define BOARD_SYS_PAGE1         0xfffff000u   /* AIC .. GPBR */
#define BOARD_TCB0_PAGE         0xfffa0000u   /* TC0..TC2 */
/* A 1 MiB identity window arch/arm maps as a section: the on-chip SRAM. */
#define BOARD_DEV_BASE          0x00200000u
#define BOARD_DEV_SIZE          0x00100000u

#define BOARD_AIC_BASE          0xfffff000u
#define BOARD_DBGU_BASE         0xfffff200u
#define BOARD_PIOA_BASE         0xfffff400u
#define BOARD_PIOB_BASE         0xfffff600u
#define BOARD_PIOC_BASE         0xfffff800u
#define BOARD_PMC_BASE          0xfffffc00u
#define BOARD_PIT_BASE          0xfffffd30u
#define BOARD_TCB0_BASE         0xfffa0000u

/* AIC source numbers (peripheral ids). */
#define BOARD_SYS_AIC_ID        1             /* PIT, DBGU, RTT, WDT, PMC, RSTC */
#define BOARD_PIOA_ID           2
#define BOARD_PIOB_ID           3
#define BOARD_PIOC_ID           4
#define BOARD_TC0_ID            17
#define BOARD_TC1_ID            18
#define BOARD_TC2_ID            19
/*
 * The system line is shared; board.c splits it into two virtual lines past
 * the AIC's 32 so the tick and the console each get request_irq().
 */
#define BOARD_PIT_IRQ           32
#define BOARD_DBGU_IRQ          33
#define BOARD_NR_IRQS           34

/* Clocks as AT91Bootstrap and OpenOCD's at91sam9g20-ek.cfg reset-init set
 * them: 18.432 MHz crystal, PLLA 792.576 MHz, CPU 396.288, MCK 132.096 MHz. */
#define BOARD_MCK_HZ            132096000u
#define BOARD_PIT_CLK_HZ        (BOARD_MCK_HZ / 16)
/* TC0+TC1 chained at MCK/8: the free-running 32-bit clock_read() counter. */
#define BOARD_COUNTER_CLK       TCB_CLK_MCK_DIV8
#define BOARD_COUNTER_HZ        (BOARD_MCK_HZ / 8)
/* TC2: the one-shot timer, at MCK/128 (about 1.03 MHz, 63 ms at most). */
#define BOARD_ONESHOT_CH        2
#define BOARD_ONESHOT_IRQ       BOARD_TC2_ID
#define BOARD_ONESHOT_CLK       TCB_CLK_MCK_DIV128
#define BOARD_ONESHOT_HZ        (BOARD_MCK_HZ / 128)
/* TC1's own interrupt is never enabled, so its AIC line is free for
 * software-raised interrupts (configured edge-triggered). */
#define BOARD_SOFT_IRQ          BOARD_TC1_ID

/* Console: the DBGU on PB14 (DRXD) / PB15 (DTXD), the EK's "DBGU" DB9. */
#define BOARD_CONSOLE_BAUD      115200u
#define BOARD_DBGU_PIO_BASE     BOARD_PIOB_BASE
#define BOARD_DBGU_RXD_PIN      14
#define BOARD_DBGU_TXD_PIN      15

/* Logic-analyzer switch marker: PA6, which also drives user LED DS5. */
#define BOARD_MARKER_GPIO_BASE  BOARD_PIOA_BASE
#define BOARD_MARKER_PIN        6
/* Wake-up marker (benchmarks): PA7, next to the switch marker. */
#define BOARD_WAKE_PIN          7

/* Where the image is linked and `make load` puts it: 64 KiB into SDRAM,
 * as on versatilepb (the first page stays unmapped). */
#define BOARD_LOAD_ADDR         0x20010000u

#endif
