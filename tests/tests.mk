# Test phases whose runner has no other home (tests/phases.txt lists every
# phase; each is a target check-<phase>). Included from the Makefile.
.PHONY: check-shell

# The scripted session and the fuzz session (tests/shell), as TAP.
SHELL_FUZZ_SEED ?= 15
# The smallest memory the configuration check accepts must boot too.
check-shell: bootstrap
	@$(MAKE) --no-print-directory O=build/check-shell build/check-shell/shell.elf
	@$(MAKE) --no-print-directory O=build/check-shell-8 RAM_MB=8 LOWMEM_MB=8 build/check-shell-8/shell.elf
	@SHELL_SMALL_ELF=build/check-shell-8/shell.elf PYTHONDONTWRITEBYTECODE=1 \
		python3 tests/shell/run_tests.py build/check-shell/shell.elf \
		$(if $(TAP),$(TAP),/dev/null) $(SHELL_FUZZ_SEED)
