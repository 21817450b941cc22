# vivt-emu: the ARM926EJ-S emulator with a VIVT cache model (issue 10).
#   make vivt-emu      build build/vivt-emu/vivt-emu (host gcc, -lunicorn)
#   make run-vivt      the demo on the emulator, exiting with its status
#   make check-vivt    every target image on the emulator, plus the asm mutants
.PHONY: vivt-emu run-vivt check-vivt

VEMU_DIR      := tools/vivt-emu
VEMU_OUT      := build/vivt-emu
VEMU          := $(VEMU_OUT)/vivt-emu
VEMU_MACHINE  := main.c machine.c machine-versatilepb.c cpu.c mmu-probe.c elf.c symbols.c \
                 semihost.c report.c vcd.c dev-pl011.c dev-pl190.c dev-sp804.c dev-pl061.c \
                 dev-sysctl.c stats-lines.c runctl.c irqsoff.c irqsoff-cpu.c
# The AT91SAM9G20-EK machine (helper at91's files).
VEMU_MACHINE  += machine-at91sam9g20ek.c dev-atmel-aic.c dev-atmel-dbgu.c dev-atmel-pit.c \
                 dev-atmel-tc.c dev-atmel-pio.c dev-atmel-pmc.c dev-atmel-sys.c
# The memory-system model (memsys.h; helper emu-memsys's files).
VEMU_MODEL    := dcache.c icache.c wbuf.c tlb.c walker.c oracle.c memsys.c
VEMU_OBJS     := $(patsubst %.c,$(VEMU_OUT)/%.o,$(VEMU_MACHINE) $(VEMU_MODEL))
VEMU_CFLAGS   := -std=gnu11 -O2 -g -Wall -Wextra -Werror -MMD -MP -I$(VEMU_OUT)

# The cycle costs of arm926-costs.json, for the interrupts-off windows' estimates.
$(VEMU_OUT)/arm926-costs.h: $(VEMU_DIR)/arm926-costs.json | bootstrap
	@mkdir -p $(@D)
	@python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["costs"]; \
		print("#define ARM926_COSTS { " + ", ".join(repr(float(c[k]["cycles"])) for k in \
		("instruction", "dline_fill", "iline_fill", "dwriteback", "cp15_op", "walk", "drain")) + " }")' $< > $@
$(VEMU_OUT)/irqsoff-cpu.o: $(VEMU_OUT)/arm926-costs.h

$(VEMU_OUT)/%.o: $(VEMU_DIR)/%.c | bootstrap
	@mkdir -p $(@D)
	@echo "  HOSTCC  $<"
	@gcc $(VEMU_CFLAGS) -c $< -o $@

$(VEMU): $(VEMU_OBJS)
	@echo "  HOSTLD  $@"
	@gcc -o $@ $(VEMU_OBJS) -lunicorn

vivt-emu: $(VEMU)

run-vivt: $(VEMU) $(O)/lokal.elf
	@$(VEMU) --machine $(BOARD) --ram $(RAM_MB) $(VIVT_ARGS) $(O)/lokal.elf

# The interrupts-off bookkeeping's unit test (irqsoff.c), with the sanitizers.
VEMU_IW_TEST  := $(VEMU_OUT)/test_irqsoff
$(VEMU_IW_TEST): $(VEMU_DIR)/irqsoff.c $(VEMU_DIR)/irqsoff.h $(VEMU_DIR)/tests/test_irqsoff.c | bootstrap
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	@gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=undefined \
		-o $@ $(VEMU_DIR)/irqsoff.c $(VEMU_DIR)/tests/test_irqsoff.c

check-vivt: $(VEMU) $(VEMU_IW_TEST)
	@TAP=$(if $(TAP),$(TAP),/dev/stdout) $(VEMU_DIR)/check-vivt.sh

-include $(wildcard $(VEMU_OUT)/*.d)
