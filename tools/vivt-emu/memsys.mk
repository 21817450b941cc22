# vivt-emu's memory-system model (memsys.h): its unit tests.
#   make check-vivt-model   build and run tools/vivt-emu/tests/test_memsys.c
#                           (ASan + UBSan); TAP lines to $(TAP) if set
.PHONY: check-vivt-model

VMODEL_DIR    := tools/vivt-emu
VMODEL_OUT    := build/vivt-model
VMODEL_SRCS   := $(addprefix $(VMODEL_DIR)/,dcache.c icache.c wbuf.c tlb.c walker.c oracle.c memsys.c)
VMODEL_TEST   := $(VMODEL_OUT)/test_memsys
VMODEL_CFLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -fno-omit-frame-pointer \
                 -fsanitize=address,undefined -fno-sanitize-recover=undefined

$(VMODEL_TEST): $(VMODEL_SRCS) $(VMODEL_DIR)/tests/test_memsys.c $(VMODEL_DIR)/memsys.h \
                $(VMODEL_DIR)/memsys-int.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  $@"
	@gcc $(VMODEL_CFLAGS) -o $@ $(VMODEL_SRCS) $(VMODEL_DIR)/tests/test_memsys.c

check-vivt-model: $(VMODEL_TEST)
	@$(VMODEL_TEST) > $(VMODEL_OUT)/test_memsys.tap; rc=$$?; \
	 cat $(VMODEL_OUT)/test_memsys.tap; \
	 if [ -n "$(TAP)" ]; then grep -E '^(not )?ok ' $(VMODEL_OUT)/test_memsys.tap >> "$(TAP)"; fi; \
	 exit $$rc
