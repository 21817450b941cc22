# vivt-emu's memory-system model (memsys.h): its unit tests and the
# emulator's own ARM test programs.
#   make check-vivt-model   tools/vivt-emu/tests/check-model.sh:
#                           tests/test_memsys.c (ASan + UBSan), then
#                           tests/arm/run.sh: each program commits one
#                           violation and must be reported, its -DFIXED twin
#                           must run clean; then tests/model-mutants.sh: each
#                           model rule bent in turn (memsys/mutants.list)
#                           must fail the unit test the table names;
#                           TAP to $(TAP) if set
.PHONY: check-vivt-model

VMODEL_DIR    := tools/vivt-emu
VMODEL_OUT    := build/vivt-model
# The library: memsys/, the oracle's version stamps (oracle.c) included;
# tests/host/host.mk links the same into the host's agreement test.
VMODEL_SRCS   := $(sort $(wildcard $(VMODEL_DIR)/memsys/*.c))
VMODEL_TEST   := $(VMODEL_OUT)/test_memsys
VMODEL_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -fno-omit-frame-pointer \
                 -fsanitize=address,undefined -fno-sanitize-recover=undefined

$(VMODEL_TEST): $(VMODEL_SRCS) $(VMODEL_DIR)/tests/test_memsys.c $(wildcard $(VMODEL_DIR)/memsys/*.h) tests/lib/tap.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	@gcc $(VMODEL_CFLAGS) -Itests/lib -o $@ $(VMODEL_SRCS) $(VMODEL_DIR)/tests/test_memsys.c

check-vivt-model: $(VMODEL_TEST) $(VEMU)
	@$(VMODEL_DIR)/tests/check-model.sh $(VMODEL_TEST) $(VEMU) $(VMODEL_OUT) $(if $(TAP),$(TAP),/dev/stdout)
