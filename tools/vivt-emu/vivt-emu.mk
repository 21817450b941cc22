# vivt-emu: the ARM926EJ-S emulator with a VIVT cache model.
#   make vivt-emu      build build/vivt-emu/vivt-emu (host gcc, -lunicorn)
#   make run-vivt      the demo on the emulator, exiting with its status
#   (make check-vivt, check-vivt-at91sam9g20-ek: tests/tests.mk)
.PHONY: vivt-emu run-vivt

VEMU_DIR      := tools/vivt-emu
VEMU_OUT      := build/vivt-emu
VEMU          := $(VEMU_OUT)/vivt-emu

include $(VEMU_DIR)/memsys/memsys.mk

# Laid out like QEMU: cpu/ (Unicorn glue), hw/<vendor>/ (one file per
# device model), machine/ (the core and one file per board), system/ (the
# command line, run control and the printed reports), memsys/ (the cache
# model and its oracle, a library behind memsys/memsys.h).  Every .c file there is built:
# a new board or device model is its file, nothing to list here.
VEMU_MACHINE  := $(patsubst $(VEMU_DIR)/%,%,$(wildcard $(VEMU_DIR)/cpu/*.c $(VEMU_DIR)/hw/*.c \
                 $(VEMU_DIR)/hw/*/*.c $(VEMU_DIR)/machine/*.c $(VEMU_DIR)/system/*.c))
VEMU_MODEL    := $(patsubst $(VEMU_DIR)/%,%,$(VMODEL_SRCS))
VEMU_OBJS     := $(patsubst %.c,$(VEMU_OUT)/%.o,$(VEMU_MACHINE) $(VEMU_MODEL))
# -flto: the per-access hooks (cpu/, memsys/) call across files; inlined
# whole-program, a run of check-vivt costs about a fifth less CPU.
VEMU_CFLAGS   := -std=gnu11 -O2 -flto=auto -g -Wall -Wextra -Werror -MMD -MP -I$(VEMU_DIR) -I$(VEMU_OUT)

# The cycle costs of arm926-costs.json, for the interrupts-off windows' estimates.
$(VEMU_OUT)/arm926-costs.h: $(VEMU_DIR)/cpu/arm926-costs.json | bootstrap
	@mkdir -p $(@D)
	@python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["costs"]; \
		print("#define ARM926_COSTS { " + ", ".join(repr(float(c[k]["cycles"])) for k in \
		("instruction", "dline_fill", "iline_fill", "dwriteback", "cp15_op", "walk", "drain", "pipeline_cycle")) + " }")' $< > $@
$(VEMU_OUT)/cpu/irqsoff-cpu.o: $(VEMU_OUT)/arm926-costs.h

$(VEMU_OUT)/%.o: $(VEMU_DIR)/%.c | bootstrap
	@mkdir -p $(@D)
	@echo "  HOSTCC  $<"
	@gcc $(VEMU_CFLAGS) -c $< -o $@

$(VEMU): $(VEMU_OBJS)
	@echo "  HOSTLD  $@"
	@gcc -O2 -flto=auto -Wall -Wextra -Werror -o $@ $(VEMU_OBJS) -lunicorn

vivt-emu: $(VEMU)

# $$(APP_ELF): firmware/apps/apps.mk, read later, names the image.
.SECONDEXPANSION:
run-vivt: $(VEMU) $$(APP_ELF)
	@$(VEMU) --machine $(BOARD) --ram $(RAM_MB) $(VIVT_ARGS) $(APP_ELF)

# The host unit tests of the parts with no Unicorn in them, with the
# sanitizers: $(VEMU_OUT)/test_NAME from cpu/NAME.[ch] and tests/test_NAME.c.
define vemu_unit_test
$(VEMU_OUT)/test_$(1): $(VEMU_DIR)/cpu/$(1).c $(VEMU_DIR)/cpu/$(1).h $(VEMU_DIR)/tests/test_$(1).c \
		tests/lib/tap.h | bootstrap
	@mkdir -p $$(@D)
	@echo "  HOSTCC  $$@"
	@gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined -fno-sanitize-recover=undefined \
		-Itests/lib -I$(VEMU_DIR) -o $$@ $(VEMU_DIR)/cpu/$(1).c $(VEMU_DIR)/tests/test_$(1).c
endef
# The interrupts-off bookkeeping (irqsoff.c) and the pipeline's costs (pipeline.c).
VEMU_IW_TEST   := $(VEMU_OUT)/test_irqsoff
VEMU_PIPE_TEST := $(VEMU_OUT)/test_pipeline
$(eval $(call vemu_unit_test,irqsoff))
$(eval $(call vemu_unit_test,pipeline))

# Compiler-written dependency files, none before the first build: -include.
-include $(wildcard $(VEMU_OUT)/*.d $(VEMU_OUT)/*/*.d $(VEMU_OUT)/*/*/*.d)
