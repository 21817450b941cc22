# The shell image: `make shell` (QEMU, console on the terminal), and what
# `make load` / `make flash` put on a board (make APP=shell run-vivt runs it
# on the emulator). Its sources are its own, the bench's, cyclic's and the demo's.
SHELL_APP_SRCS := $(sort $(wildcard firmware/apps/shell/*.c)) \
                  $(filter-out firmware/apps/bench/main.c,$(sort $(wildcard firmware/apps/bench/*.c))) \
                  $(filter-out firmware/apps/cyclic/main.c,$(sort $(wildcard firmware/apps/cyclic/*.c))) \
                  firmware/apps/demo/demo.c.shell firmware/apps/demo/demo_dma.c

# The demo, built again with its app_main renamed so `demo` can call it.
$(O)/obj/firmware/apps/demo/demo.c.shell.o: firmware/apps/demo/demo.c $(CONFIG_H) | bootstrap
	@mkdir -p $(@D)
	@echo "  CC      $< (as shell_demo_main)"
	@$(CC) $(CFLAGS) -Dapp_main=shell_demo_main -c $< -o $@

APP_IMAGE.shell := shell
$(eval $(call image,shell,$(SHELL_APP_SRCS)))

.PHONY: shell shell-image
shell-image: $(O)/shell.elf

# Interactive on a terminal; with piped input each line waits for the prompt.
# A board without a QEMU model is refused (the Makefile's no-qemu-model).
shell: $(if $(BOARD_QEMU),$(O)/shell.elf,no-qemu-model)
	@RAM_MB=$(RAM_MB) python3 tools/shell/run.py $<
