# The AT91SAM9G20-EK on vivt-emu (issue 16).
#   make check-vivt-at91     tests.list, the demo and tools/latency on the
#                            emulator's AT91 machine, then the driver mutants
#   make at91-mutants        the AT91 driver mutants alone
.PHONY: check-vivt-at91 at91-mutants

check-vivt-at91: $(VEMU)
	@TAP=$(if $(TAP),$(TAP),/dev/stdout) tools/vivt-emu/check-vivt-at91.sh

at91-mutants: $(VEMU)
	@TAP=$(if $(TAP),$(TAP),/dev/stdout) tools/vivt-emu/at91-mutants.sh
