# The AT91SAM9G20-EK on vivt-emu: the guests check-vivt-at91 (tests/tests.mk)
# runs besides the test images.

# Guests that touch one unmodelled AT91 address each: at91-touch-{r,w}-ADDR.elf.
VEMU_AT91_TOUCH := w-fffffd44 r-fffff104 w-ffffea08 r-fffa4000
VEMU_AT91_TOUCH_ELFS := $(VEMU_AT91_TOUCH:%=$(VEMU_OUT)/guest/at91-touch-%.elf)

$(VEMU_OUT)/guest/at91-touch-%.elf: tools/vivt-emu/tests/guest/at91-touch.S | bootstrap
	@mkdir -p $(@D)
	@$(CROSS)gcc $(CPUFLAGS) -nostdlib -nostartfiles -Wl,-Ttext=0x20010000 -Wl,--no-warn-rwx-segments \
		-DWRITE=$(if $(filter w-%,$*),1,0) -DADDR=0x$(lastword $(subst -, ,$*)) -o $@ $<
