# Host tests: firmware/mm and friends built natively against arch/sim (the
# ARM926 cache/TLB/walker model), run under cmocka with ASan and UBSan, in a
# thread of the real scheduler (tests/host/support/host_threads.c).
#
#   make check-host     every host test in three configurations (default:
#                       the deferred scheme; KMAP_DEFER=0: the eager one;
#                       DEBUG_HIGHMEM=1) plus a short fuzz run (FUZZ_RUNS
#                       sequences per variant from a fixed seed);
#                       TAP lines go to $(TAP) (stdout if unset)
#   make check-mutants  delete each cache/TLB maintenance call in turn and
#                       show a host test about it fails, mm or scheduler
#                       suite ("mutants killed K/N")
#   make fuzz           a long fuzz run (FUZZ_TIME seconds per variant, default 600)

.PHONY: check-host check-mutants fuzz host-tests

HOST_CC      ?= gcc
HOST_FUZZ_CC ?= clang
HOST_OUT     ?= build/host
HOST_SAN     ?= -fsanitize=address,undefined -fno-sanitize-recover=undefined
# -g1: line tables only, all a sanitizer's report needs (file:line); a fifth
# less compile time and objects half the size to link, over 300 of each.
HOST_CFLAGS  := -std=gnu11 -O1 -g1 -Wall -Wextra -Werror -fno-omit-frame-pointer
HOST_LIBS    := -lcmocka
# How every sanitized host binary runs: the model's SIGSEGV handler is the
# fault path under test, and a test that panics on purpose leaks.
HOST_ASAN_OPTIONS := allow_user_segv_handler=1:detect_leaks=0:detect_stack_use_after_return=0
FUZZ_TIME    ?= 600
# A count, not a time: the check does the same work however busy the host is.
FUZZ_RUNS    ?= 2500

HOST_VARIANTS := default eager debug
host_opts_eager := KMAP_DEFER=0
host_opts_debug := DEBUG_HIGHMEM=1

# Portable code under test with the real scheduler (as tests/host/sched
# runs it), the simulated arch, the host platform and the test runner.
HOST_FW_SRCS := $(sort $(wildcard firmware/mm/*.c)) \
                $(filter-out firmware/kernel/main.c,$(sort $(wildcard firmware/kernel/*.c))) \
                $(sort $(wildcard firmware/lib/*.c)) $(sort $(wildcard arch/sim/*.c)) \
                tests/host/sched/platform_stub.c $(sort $(wildcard tests/host/support/*.c))
HOST_TESTS   := $(basename $(notdir $(wildcard tests/host/test_*.c)))
# The emulator's memory-system library (tools/vivt-emu/memsys/memsys.mk).
HOST_MEMSYS_SRCS := $(sort $(wildcard tools/vivt-emu/memsys/*.c))

host_inc = -I$(HOST_OUT)/$(1)/include -Iarch/sim/include -Iarch/arm/include \
           -Ifirmware/include -Itests/host/support -Itests/host -Itests/host/sched

# $(call host_variant,NAME): config header, objects and test binaries.
define host_variant
$(HOST_OUT)/$(1)/include/generated/config.h: $(foreach o,$(host_opts_$(1)),override $(o))
# The host has no board folder: the arch's out-of-line IRQ path.
$(HOST_OUT)/$(1)/include/generated/config.h: override BOARD_IRQ_INLINE :=
$(HOST_OUT)/$(1)/include/generated/config.h: FORCE
	$$(call write_config,$$@)

$(HOST_OUT)/$(1)/obj/%.o: %.c $(HOST_OUT)/$(1)/include/generated/config.h
	@mkdir -p $$(@D)
	@echo "  HOSTCC  [$(1)] $$<"
	@$$(HOST_CC) $$(HOST_CFLAGS) $$(HOST_SAN) $(call host_inc,$(1)) -MMD -MP -c $$< -o $$@

$(1)_FW_OBJS := $(patsubst %.c,$(HOST_OUT)/$(1)/obj/%.o,$(call with_kmap_scheme,$(HOST_FW_SRCS),$(host_opts_$(1))))

$(HOST_OUT)/$(1)/bin/%: $(HOST_OUT)/$(1)/obj/tests/host/%.o $$($(1)_FW_OBJS)
	@mkdir -p $$(@D)
	@echo "  HOSTLD  [$(1)] $$@"
	@$$(HOST_CC) $$(HOST_SAN) $$(HOST_LINK_WRAP) -o $$@ $$^ $$(HOST_LIBS)

# test_model_agree runs the emulator's cache model beside arch/sim.
$(HOST_OUT)/$(1)/bin/test_model_agree: $(patsubst %.c,$(HOST_OUT)/$(1)/obj/%.o,$(HOST_MEMSYS_SRCS))

# test_irq_sweep: the sweep's engine, and preempt_enable() wrapped as one of its landing points.
$(HOST_OUT)/$(1)/bin/test_irq_sweep: $(HOST_OUT)/$(1)/obj/tests/host/sweep/irq_sweep.o
$(HOST_OUT)/$(1)/bin/test_irq_sweep: HOST_LINK_WRAP := -Wl,--wrap=preempt_enable

host-tests: $(foreach t,$(HOST_TESTS),$(HOST_OUT)/$(1)/bin/$(t))
# The objects are intermediate (made by the pattern rule above for a
# binary's sake): keep them, or touching one test rebuilds every object.
.PRECIOUS: $(HOST_OUT)/$(1)/obj/%.o
endef
$(foreach v,$(HOST_VARIANTS),$(eval $(call host_variant,$(v))))


# Fuzz targets: clang + libFuzzer, on a small machine (16 pkmap slots) so
# that pool wrap-around and flushes happen within a few operations; one
# build per kmap scheme (deferred, eager).
FUZZ_VARIANTS := fuzz fuzz-eager
fuzz_opts_fuzz-eager := KMAP_DEFER=0
HOST_FUZZ_FLAGS := -std=gnu11 -O1 -g -Wall -Wextra -Werror -fsanitize=fuzzer,address,undefined

define fuzz_variant
$(HOST_OUT)/$(1)/include/generated/config.h: override RAM_MB := 16
$(HOST_OUT)/$(1)/include/generated/config.h: override LOWMEM_MB := 8
$(HOST_OUT)/$(1)/include/generated/config.h: override LAST_PKMAP := 16
$(HOST_OUT)/$(1)/include/generated/config.h: $(foreach o,$(fuzz_opts_$(1)),override $(o))
$(HOST_OUT)/$(1)/include/generated/config.h: override BOARD_IRQ_INLINE :=
$(HOST_OUT)/$(1)/include/generated/config.h: FORCE
	$$(call write_config,$$@)

$(HOST_OUT)/$(1)/fuzz_kmap: tests/host/fuzz/fuzz_kmap.c $(call with_kmap_scheme,$(HOST_FW_SRCS),$(fuzz_opts_$(1))) $(HOST_OUT)/$(1)/include/generated/config.h
	@mkdir -p $$(@D)
	@echo "  FUZZCC  $$@"
	@$$(HOST_FUZZ_CC) $$(HOST_FUZZ_FLAGS) $(call host_inc,$(1)) -o $$@ \
		tests/host/fuzz/fuzz_kmap.c $(call with_kmap_scheme,$(HOST_FW_SRCS),$(fuzz_opts_$(1))) $$(HOST_LIBS)
endef
$(foreach v,$(FUZZ_VARIANTS),$(eval $(call fuzz_variant,$(v))))
FUZZ_BINS := $(foreach v,$(FUZZ_VARIANTS),$(HOST_OUT)/$(v)/fuzz_kmap)

check-host: host-tests $(FUZZ_BINS)
	@ASAN_OPTIONS=$(HOST_ASAN_OPTIONS) tests/host/run-tests.sh "$(if $(TAP),$(TAP),/dev/stdout)" $(HOST_OUT) \
		"$(HOST_VARIANTS)" "$(HOST_TESTS)" $(FUZZ_RUNS) "$(FUZZ_VARIANTS)"

check-mutants:
	@tests/host/mutants.sh "$(if $(TAP),$(TAP),/dev/stdout)"

# The long run: FUZZ_TIME seconds per variant, corpus kept between runs.
fuzz: $(FUZZ_BINS)
	@for v in $(FUZZ_VARIANTS); do \
		mkdir -p $(HOST_OUT)/$$v/corpus; \
		echo "fuzz_kmap [$$v] for $(FUZZ_TIME) s"; \
		ASAN_OPTIONS=$(HOST_ASAN_OPTIONS) \
			$(HOST_OUT)/$$v/fuzz_kmap -max_total_time=$(FUZZ_TIME) \
			-artifact_prefix=$(HOST_OUT)/$$v/ $(HOST_OUT)/$$v/corpus tests/host/fuzz/seeds || exit 1; \
	done

# Header dependencies of the host objects (-include: they appear with the
# first build). Read only when a goal builds host tests: every other make
# run (each image build of a check) would pay for parsing hundreds of them.
# The mutation check's private tree under mutants/ has its own.
ifneq ($(filter check-host check-host-sched host-tests host-sched-tests fuzz $(HOST_OUT)/%,$(MAKECMDGOALS)),)
-include $(shell find $(HOST_OUT) -path $(HOST_OUT)/mutants -prune -o -name '*.d' -print 2>/dev/null)
endif
