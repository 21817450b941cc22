# Test phases whose runner has no other home (tests/phases.txt lists every
# phase; each is a target check-<phase>). Included from the Makefile.
.PHONY: check-shell check-vivt

# tests.list and more on vivt-emu, then the asm mutants.
check-vivt: $(VEMU) $(VEMU_IW_TEST) $(VEMU_PIPE_TEST)
	@TAP=$(if $(TAP),$(TAP),/dev/stdout) tests/vivt/check-vivt.sh

# check-vivt-BOARD: any board vivt-emu has a machine of that name for,
# through the one runner every board shares (tests/phases.txt: vivt-BOARD).
# An explicit check-vivt-* rule (check-vivt-model) wins over this pattern.
check-vivt-%: $(VEMU)
	@TAP=$(if $(TAP),$(TAP),/dev/stdout) tests/vivt/check-vivt-board.sh $*

# board-mutants-BOARD: that board's driver mutants alone (board/BOARD/mutants.list).
board-mutants-%: $(VEMU)
	@TAP=$(if $(TAP),$(TAP),/dev/stdout) tests/vivt/board-mutants.sh $*

# The scripted session and the fuzz session (tests/shell), as TAP. The
# images come from the build folders tests/lib/images.sh names, so in
# make check the default one is check-vivt's, built already (both phases
# are in the lane that builds versatilepb's folders).
SHELL_FUZZ_SEED ?= 15
SHELL_SMALL    := RAM_MB=8 LOWMEM_MB=8
shell_o = $(shell bash -c '. tests/lib/images.sh && build_dir $(BOARD) "$(1)"')
# Every other board QEMU models gets a short session of its own shell image
# (its default folder: check-target's, in the same lane).
shell_boards = $(filter-out $(BOARD),$(shell bash -c '. tests/lib/images.sh && qemu_boards'))
shell_board_o = $(shell bash -c '. tests/lib/images.sh && build_dir $(1)')
# The smallest memory the configuration check accepts must boot too.
check-shell: bootstrap
	@$(MAKE) --no-print-directory O=$(call shell_o) $(call shell_o)/shell.elf
	@$(MAKE) --no-print-directory O=$(call shell_o,$(SHELL_SMALL)) $(SHELL_SMALL) \
		$(call shell_o,$(SHELL_SMALL))/shell.elf
	@$(foreach b,$(shell_boards),$(MAKE) --no-print-directory BOARD=$(b) O=$(call shell_board_o,$(b)) \
		$(call shell_board_o,$(b))/shell.elf &&) true
	@SHELL_SMALL_ELF=$(call shell_o,$(SHELL_SMALL))/shell.elf PYTHONDONTWRITEBYTECODE=1 \
		SHELL_BOARD_ELFS="$(foreach b,$(shell_boards),$(b)=$(call shell_board_o,$(b))/shell.elf)" \
		$(PYTHON) tests/shell/run_tests.py $(call shell_o)/shell.elf \
		$(if $(TAP),$(TAP),/dev/null) $(SHELL_FUZZ_SEED)

# Every make variable's limits on every board, the demo on small memories,
# bounded QEMU runs, the target runner on a fresh tree.
.PHONY: check-config
check-config: bootstrap
	@tests/config/check-config.sh $(if $(TAP),$(TAP),/dev/stdout)
