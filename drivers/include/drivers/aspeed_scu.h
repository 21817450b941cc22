/* ASPEED AST2400 system control unit (SCU): clock rates only. */
#ifndef DRIVERS_ASPEED_SCU_H
#define DRIVERS_ASPEED_SCU_H

#include <stdint.h>

/*
 * PCLK (the APB clock, which the timers may count) in Hz, from the H-PLL
 * setting (programmed in SCU24, else the hardware strap in SCU70) and the
 * APB divider in SCU08; 0 when the H-PLL is off.
 */
uint32_t aspeed_scu_pclk_hz(uintptr_t base);

#endif
