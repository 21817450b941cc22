# Guests that touch one AT91 address each, at91-touch-{r,w}-ADDR.elf: the
# rows of tools/vivt-emu/tests/guest/unmodelled.list name the ones
# check-vivt-at91sam9g20-ek builds and runs.

$(VEMU_OUT)/guest/at91-touch-%.elf: tools/vivt-emu/tests/guest/at91-touch.S | bootstrap
	@mkdir -p $(@D)
	@$(CROSS)gcc $(CPUFLAGS) -nostdlib -nostartfiles -Wl,-Ttext=0x20010000 -Wl,--no-warn-rwx-segments \
		-DWRITE=$(if $(filter w-%,$*),1,0) -DADDR=0x$(lastword $(subst -, ,$*)) -o $@ $<
