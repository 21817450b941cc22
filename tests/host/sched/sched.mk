# Kernel and lib code on the host. The real scheduler (firmware/kernel), against arch/sim's
# ucontext switch and VIVT model, built in the same three configurations as
# the mm host tests (default: deferred; KMAP_DEFER=0: eager; DEBUG_HIGHMEM=1).
#
#   make check-host-sched     TAP lines to $(TAP)
#   make host-sched-tests     only build $(SCHED_HOST_OUT)/<variant>/test_sched_real
#
# The test binary links with --wrap=__cpuc_flush_dcache_area so that a test
# can land an "interrupt" right after a D-cache flush made with interrupts
# on (tests/host/sched/irq_inject.c): the step before a slot's PTE clear.

SCHED_HOST_OUT      ?= build/host-sched
SCHED_HOST_VARIANTS := $(HOST_VARIANTS)
# The firmware and arch/sim objects are the host tests' own ($(HOST_OUT),
# tests/host/host.mk: the same sources, flags and three configurations, so
# one build serves both phases); only this folder's files are compiled here.
SCHED_HOST_FW   := $(sort $(wildcard firmware/mm/*.c)) \
                   $(filter-out firmware/kernel/main.c,$(sort $(wildcard firmware/kernel/*.c))) \
                   $(sort $(wildcard firmware/lib/*.c)) $(sort $(wildcard arch/sim/*.c))
SCHED_HOST_OWN  := $(sort $(wildcard tests/host/sched/*.c))
sched_host_inc   = -I$(HOST_OUT)/$(1)/include -Iarch/sim/include -Iarch/arm/include \
                   -Ifirmware/include -Itests/host/sched

# $(call sched_host_variant,NAME): the test's own objects and the binary.
define sched_host_variant
$(SCHED_HOST_OUT)/$(1)/obj/%.o: %.c $(HOST_OUT)/$(1)/include/generated/config.h
	@mkdir -p $$(@D)
	@echo "  HOSTCC  [sched $(1)] $$<"
	@gcc $$(HOST_CFLAGS) $$(HOST_SAN) $(call sched_host_inc,$(1)) -MMD -MP -c $$< -o $$@

$(SCHED_HOST_OUT)/$(1)/test_sched_real: $(patsubst %.c,$(HOST_OUT)/$(1)/obj/%.o,$(call with_kmap_scheme,$(SCHED_HOST_FW),$(host_opts_$(1)))) \
		$(patsubst %.c,$(SCHED_HOST_OUT)/$(1)/obj/%.o,$(SCHED_HOST_OWN))
	@echo "  HOSTLD  $$@"
	@gcc $$(HOST_SAN) -Wl,--wrap=__cpuc_flush_dcache_area -o $$@ $$^ -lcmocka

host-sched-tests: $(SCHED_HOST_OUT)/$(1)/test_sched_real
endef
$(foreach v,$(SCHED_HOST_VARIANTS),$(eval $(call sched_host_variant,$(v))))

.PHONY: check-host-sched host-sched-tests
check-host-sched: host-sched-tests $(SCHED_HOST_OUT)/test_lib
	@rc=0; for t in $(SCHED_HOST_VARIANTS:%=%/test_sched_real) test_lib; do \
		v=$${t%/*}; [ "$$v" = "$$t" ] && v=; \
		ASAN_OPTIONS=$(HOST_ASAN_OPTIONS) \
			CMOCKA_MESSAGE_OUTPUT=tap timeout -k 5 300 $(SCHED_HOST_OUT)/$$t > $(SCHED_HOST_OUT)/$$t.tap 2>&1 || rc=1; \
		cat $(SCHED_HOST_OUT)/$$t.tap; \
		n=$$(basename $$t)$${v:+ [$$v]}; \
		grep -E '^(not )?ok ' $(SCHED_HOST_OUT)/$$t.tap | sed "s/^\(\(not \)\?ok [0-9]*\) - /\1 - $$n: /" \
			>> $(if $(TAP),$(TAP),/dev/null); \
	done; exit $$rc

# firmware/lib on its own (ring buffer, CRC-32C).
$(SCHED_HOST_OUT)/test_lib: tests/host/lib/test_lib.c firmware/lib/ringbuf.c firmware/lib/crc32c.c
	@echo "  HOSTLD  $@"
	@mkdir -p $(@D)
	@gcc $(HOST_CFLAGS) $(HOST_SAN) \
		-Ifirmware/include -o $@ $^ -lcmocka

# Header dependencies (-include: they appear with the first build), read
# only when a goal builds these tests, not by every image build.
ifneq ($(filter check-host-sched host-sched-tests $(SCHED_HOST_OUT)/%,$(MAKECMDGOALS)),)
-include $(shell find $(SCHED_HOST_OUT) -name '*.d' 2>/dev/null)
endif
