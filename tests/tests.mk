# Test phases whose runner has no other home (tests/phases.txt lists every
# phase; each is a target check-<phase>). Included from the Makefile.
.PHONY: check-shell check-vivt check-vivt-at91 at91-mutants

# tests.list and more on vivt-emu, then the asm mutants.
check-vivt: $(VEMU) $(VEMU_IW_TEST)
	@TAP=$(if $(TAP),$(TAP),/dev/stdout) tests/vivt/check-vivt.sh

# The AT91SAM9G20-EK on vivt-emu, then its driver mutants (at91-mutants alone).
check-vivt-at91: $(VEMU) $(VEMU_AT91_TOUCH_ELFS)
	@TAP=$(if $(TAP),$(TAP),/dev/stdout) tests/vivt/check-vivt-at91.sh

at91-mutants: $(VEMU)
	@TAP=$(if $(TAP),$(TAP),/dev/stdout) tests/vivt/at91-mutants.sh

# The scripted session and the fuzz session (tests/shell), as TAP.
SHELL_FUZZ_SEED ?= 15
# The smallest memory the configuration check accepts must boot too.
check-shell: bootstrap
	@$(MAKE) --no-print-directory O=build/check-shell build/check-shell/shell.elf
	@$(MAKE) --no-print-directory O=build/check-shell-8 RAM_MB=8 LOWMEM_MB=8 build/check-shell-8/shell.elf
	@SHELL_SMALL_ELF=build/check-shell-8/shell.elf PYTHONDONTWRITEBYTECODE=1 \
		$(PYTHON) tests/shell/run_tests.py build/check-shell/shell.elf \
		$(if $(TAP),$(TAP),/dev/null) $(SHELL_FUZZ_SEED)

# Every make variable's limits on every board, the demo on small memories,
# bounded QEMU runs, the target runner on a fresh tree.
.PHONY: check-config
check-config: bootstrap
	@tests/config/check-config.sh $(if $(TAP),$(TAP),/dev/stdout)
