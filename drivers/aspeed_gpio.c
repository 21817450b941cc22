/* ASPEED AST2400 GPIO (datasheet "GPIO"; Linux: gpio-aspeed.c): direction only. */
#include <drivers/aspeed_gpio.h>
#include <drivers/mmio.h>

void aspeed_gpio_set_output(uintptr_t set, unsigned int pin)
{
	mmio_write32(set + ASPEED_GPIO_DIR, mmio_read32(set + ASPEED_GPIO_DIR) | (1u << pin));
}

void aspeed_gpio_set_input(uintptr_t set, unsigned int pin)
{
	mmio_write32(set + ASPEED_GPIO_DIR, mmio_read32(set + ASPEED_GPIO_DIR) & ~(1u << pin));
}
