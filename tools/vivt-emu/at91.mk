# The AT91SAM9G20-EK on vivt-emu.
#   make check-vivt-at91     tests.list, the demo and tools/latency on the
#                            emulator's AT91 machine, then the driver mutants
#   make at91-mutants        the AT91 driver mutants alone

# Guests that touch one unmodelled AT91 address each: at91-touch-{r,w}-ADDR.elf.
VEMU_AT91_TOUCH := w-fffffd44 r-fffff104 w-ffffea08 r-fffa4000
VEMU_AT91_TOUCH_ELFS := $(VEMU_AT91_TOUCH:%=$(VEMU_OUT)/guest/at91-touch-%.elf)

.PHONY: check-vivt-at91 at91-mutants

check-vivt-at91: $(VEMU) $(VEMU_AT91_TOUCH_ELFS)
	@TAP=$(if $(TAP),$(TAP),/dev/stdout) tools/vivt-emu/check-vivt-at91.sh

at91-mutants: $(VEMU)
	@TAP=$(if $(TAP),$(TAP),/dev/stdout) tools/vivt-emu/at91-mutants.sh

$(VEMU_OUT)/guest/at91-touch-%.elf: tools/vivt-emu/tests/guest/at91-touch.S | bootstrap
	@mkdir -p $(@D)
	@$(CROSS)gcc $(CPUFLAGS) -nostdlib -nostartfiles -Wl,-Ttext=0x20010000 -Wl,--no-warn-rwx-segments \
		-DWRITE=$(if $(filter w-%,$*),1,0) -DADDR=0x$(lastword $(subst -, ,$*)) -o $@ $<
