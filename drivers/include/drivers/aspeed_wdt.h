/* ASPEED AST2400 watchdog: used to reset the SoC. */
#ifndef DRIVERS_ASPEED_WDT_H
#define DRIVERS_ASPEED_WDT_H

#include <stdint.h>

/* Start the watchdog with a full-chip reset us microseconds from now (1 MHz clock). */
void aspeed_wdt_reset_in(uintptr_t base, uint32_t us);

#endif
