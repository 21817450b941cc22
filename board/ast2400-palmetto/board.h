/*
 * ASPEED AST2400 (ARM926EJ-S server BMC) on a Palmetto-style board, and
 * QEMU's "palmetto-bmc" model of it. UNTESTED ON HARDWARE: addresses and
 * interrupt lines from QEMU 7.2's AST2400 model (hw/arm/aspeed_soc.c),
 * which follows the AST2400 memory map, and Linux's aspeed-g4.dtsi.
 *
 * Every address, IRQ line and clock a driver or the arch glue needs comes
 * from here, as for versatilepb.
 */
#ifndef BOARD_AST2400_PALMETTO_H
#define BOARD_AST2400_PALMETTO_H

#define BOARD_NAME              "ast2400-palmetto"
#define BOARD_RAM_BASE          0x40000000u   /* SDRAM */
#define BOARD_RAM_MAX_MB        512           /* the SDRAM controller's largest size */

/* Devices: the AHB/APB window 0x1E600000-0x1E7FFFFF, two 1 MiB sections. */
#define BOARD_DEV_BASE          0x1e600000u
#define BOARD_DEV_SIZE          0x00200000u

#define BOARD_VIC_BASE          0x1e6c0000u
#define BOARD_SCU_BASE          0x1e6e2000u
#define BOARD_XDMA_BASE         0x1e6e7000u
#define BOARD_GPIO_BASE         0x1e780000u
#define BOARD_TIMER_BASE        0x1e782000u
#define BOARD_UART5_BASE        0x1e784000u   /* QEMU's serial0 on palmetto-bmc */
#define BOARD_WDT1_BASE         0x1e785000u

/* VIC lines. */
#define BOARD_XDMA_IRQ          6
#define BOARD_UART5_IRQ         10
#define BOARD_TIMER1_IRQ        16
#define BOARD_TIMER2_IRQ        17
#define BOARD_TIMER3_IRQ        18
#define BOARD_GPIO_IRQ          20
#define BOARD_NR_IRQS           64            /* two 32-bit register halves */

/*
 * Timers: 1 the tick and 2 the one-shot, at the 1 MHz external clock; 3
 * the free-running counter, at PCLK (24 MHz under QEMU; clock_hz() reads
 * the rate from the SCU's clock setup at boot).
 */
#define BOARD_TICK_TIMER        1
#define BOARD_ONESHOT_TIMER     2
#define BOARD_COUNTER_TIMER     3
#define BOARD_TIMER_CLK_HZ      1000000u
#define BOARD_COUNTER_HZ        24000000u     /* QEMU's PCLK; clock_hz() has the SCU's */

/*
 * The line software raises: the XDMA engine's (unused otherwise). Where
 * the VIC has software interrupts (silicon) they raise it; where it has
 * none (QEMU 7.2) the XDMA's completion interrupt does (drivers/aspeed_xdma.h).
 */
#define BOARD_SOFT_IRQ          BOARD_XDMA_IRQ

/* Console: UART5, 24 MHz / 13 as Linux's aspeed-g4.dtsi gives it. */
#define BOARD_UART_CLK_HZ       1846153u
#define BOARD_CONSOLE_BAUD      115200u

/* Logic-analyzer switch marker: GPIOA0; wake-up marker: GPIOA1 (set A-D). */
#define BOARD_MARKER_GPIO_BASE  (BOARD_GPIO_BASE + 0x000u)
#define BOARD_MARKER_GPIO_RDATA (BOARD_GPIO_BASE + 0x0c0u)
#define BOARD_MARKER_PIN        0
#define BOARD_WAKE_PIN          1

/* Where the image is linked and loaded: 64 KiB into SDRAM, as on the other boards. */
#define BOARD_LOAD_ADDR         0x40010000u

#endif
