# Kernel and lib code on the host. The real scheduler (firmware/kernel), against arch/sim's
# ucontext switch and VIVT model. Separate from tests/host/host.mk, whose
# tests link the scheduler stand-ins instead.
#
#   make check-host-sched     TAP lines to $(TAP)

SCHED_HOST_OUT  := build/host-sched
SCHED_HOST_SRCS := $(sort $(wildcard firmware/mm/*.c)) \
                   $(filter-out firmware/kernel/main.c,$(sort $(wildcard firmware/kernel/*.c))) \
                   $(sort $(wildcard firmware/lib/*.c)) $(sort $(wildcard arch/sim/*.c)) \
                   $(sort $(wildcard tests/host/sched/*.c))
SCHED_HOST_INC  := -I$(SCHED_HOST_OUT)/include -Iarch/sim/include -Iarch/arm/include \
                   -Ifirmware/include -Itests/host/sched
SCHED_HOST_OBJS := $(patsubst %.c,$(SCHED_HOST_OUT)/obj/%.o,$(SCHED_HOST_SRCS))

$(SCHED_HOST_OUT)/include/generated/config.h: FORCE
	$(call write_config,$@)

$(SCHED_HOST_OUT)/obj/%.o: %.c $(SCHED_HOST_OUT)/include/generated/config.h
	@mkdir -p $(@D)
	@echo "  HOSTCC  [sched] $<"
	@gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -fno-omit-frame-pointer \
		-fsanitize=address,undefined -fno-sanitize-recover=undefined \
		$(SCHED_HOST_INC) -MMD -MP -c $< -o $@

$(SCHED_HOST_OUT)/test_sched_real: $(SCHED_HOST_OBJS)
	@echo "  HOSTLD  $@"
	@gcc -fsanitize=address,undefined -o $@ $^ -lcmocka

.PHONY: check-host-sched
check-host-sched: $(SCHED_HOST_OUT)/test_sched_real
	@rc=0; for t in test_sched_real test_lib; do \
		ASAN_OPTIONS=allow_user_segv_handler=1:detect_leaks=0:detect_stack_use_after_return=0 \
			CMOCKA_MESSAGE_OUTPUT=tap $(SCHED_HOST_OUT)/$$t > $(SCHED_HOST_OUT)/$$t.tap 2>&1 || rc=1; \
		cat $(SCHED_HOST_OUT)/$$t.tap; \
		grep -E '^(not )?ok ' $(SCHED_HOST_OUT)/$$t.tap | sed "s/^\(\(not \)\?ok [0-9]*\) - /\1 - $$t: /" \
			>> $(if $(TAP),$(TAP),/dev/null); \
	done; exit $$rc

# firmware/lib on its own (ring buffer, CRC-32C).
$(SCHED_HOST_OUT)/test_lib: tests/host/lib/test_lib.c firmware/lib/ringbuf.c firmware/lib/crc32c.c
	@echo "  HOSTLD  $@"
	@mkdir -p $(@D)
	@gcc -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=address,undefined \
		-fno-sanitize-recover=undefined -Ifirmware/include -o $@ $^ -lcmocka

check-host-sched: $(SCHED_HOST_OUT)/test_lib

-include $(shell find $(SCHED_HOST_OUT) -name '*.d' 2>/dev/null)
