# The shell image: `make shell` (QEMU, console on the terminal), and what
# `make load` / `make flash` put on a board (make APP=shell run-vivt runs it
# on the emulator). It runs the bench's, cyclic's and the demo's parts as
# commands: their sources but their main.c, their headers on its path.
APP_USES.shell := bench cyclic demo
$(eval $(call app,shell))

.PHONY: shell shell-image
shell-image: $(O)/shell.elf

# Interactive on a terminal; with piped input each line waits for the prompt.
# A board without a QEMU model is refused (the Makefile's no-qemu-model).
shell: $(if $(BOARD_QEMU),$(O)/shell.elf,no-qemu-model)
	@RAM_MB=$(RAM_MB) python3 tools/shell/run.py $<
