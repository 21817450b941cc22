/*
 * ARM Versatile/PB926EJ-S (and QEMU's "versatilepb" model of it).
 * Every address, IRQ line and clock a driver or the arch glue needs comes
 * from here, so a second board is a second folder, not an edit of drivers.
 */
#ifndef BOARD_VERSATILEPB_H
#define BOARD_VERSATILEPB_H

#define BOARD_NAME              "versatilepb"
#define BOARD_RAM_BASE          0x00000000u
/* BOARD_RAM_MB comes from the build configuration (QEMU refuses > 256). */

/* Devices: one 2 MiB window of sections mapped uncached and unbuffered. */
#define BOARD_DEV_BASE          0x10000000u
#define BOARD_DEV_SIZE          0x00200000u
/* NOR flash, mapped uncached read-only so a flashed image can be inspected. */
#define BOARD_FLASH_BASE        0x34000000u
#define BOARD_FLASH_SIZE        0x04000000u

#define BOARD_SYSCTL_BASE       0x10000000u
#define BOARD_COUNTER_24MHZ     0x1000005Cu   /* free-running, 24 MHz */
#define BOARD_COUNTER_HZ        24000000u

#define BOARD_SIC_BASE          0x10003000u   /* secondary controller, on VIC 31 */
#define BOARD_VIC_BASE          0x10140000u   /* PL190 */
#define BOARD_NR_IRQS           32

#define BOARD_TIMER01_BASE      0x101E2000u   /* SP804: timers 0 and 1 */
#define BOARD_TIMER01_IRQ       4
#define BOARD_TIMER23_BASE      0x101E3000u   /* SP804: timers 2 and 3 */
#define BOARD_TIMER23_IRQ       5
#define BOARD_TIMER_CLK_HZ      1000000u      /* TIMCLK as QEMU and the board wire it */

#define BOARD_GPIO0_BASE        0x101E4000u   /* PL061 GPIO0..3 at 4 KiB steps */
#define BOARD_GPIO0_IRQ         6

#define BOARD_UART0_BASE        0x101F1000u   /* PL011, the console */
#define BOARD_UART0_IRQ         12

#define BOARD_PL080_BASE        0x10130000u   /* DMA controller, 8 channels */
#define BOARD_PL080_IRQ         17
#define BOARD_UART_CLK_HZ       24000000u
#define BOARD_CONSOLE_BAUD      115200u

/* Logic-analyzer switch marker: GPIO0 pin 0 (J-connector on the board). */
#define BOARD_MARKER_GPIO_BASE  BOARD_GPIO0_BASE
#define BOARD_MARKER_PIN        0
/* Wake-up marker (benchmarks): GPIO0 pin 1. */
#define BOARD_WAKE_PIN          1

/* Where the image is loaded: QEMU puts a raw -kernel image at 0x10000. */
#define BOARD_LOAD_ADDR         0x00010000u

#endif
