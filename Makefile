# Lokal: build, run and test.  `make help` lists the targets.
#
# Configuration is make variables, e.g. make HZ=1000 DEBUG_HIGHMEM=1.
# config.table lists every one (default, range per board, why); config.mk
# sets the defaults, checks each value before anything is built and writes
# them into $(O)/include/generated/config.h. `make config-limits` prints
# the ranges on a board.
include config.mk

.DEFAULT_GOAL := all
.PHONY: all run debug check check-host check-target check-boards bench stress help \
        bootstrap clean FORCE

BOOTSTRAP_STAMP := build/.bootstrap-ok
# Debian's python3, which bootstrap installs: a python3 found earlier in PATH
# may be a version manager's shim, which costs about 0.4 s of CPU per start.
# The scripts' "#!/usr/bin/env python3" and the runners' python3 calls find
# the same one.
PYTHON := /usr/bin/python3
export PATH := /usr/bin:$(PATH)
bootstrap: $(BOOTSTRAP_STAMP)
$(BOOTSTRAP_STAMP): tools/bootstrap.sh
	@tools/bootstrap.sh
	@mkdir -p $(@D) && touch $@

include arch/arm/arch.mk
include firmware/firmware.mk
# Fragments owned by other areas; each adds its own check-<phase> target.
# Plain include: a missing fragment is an error, not a phase quietly gone.
include tests/host/host.mk
include tests/host/sched/sched.mk
include tools/board-flow.mk
include tools/latency/latency.mk
include tools/vivt-emu/vivt-emu.mk
include tools/vivt-emu/at91.mk

# ---- cross build ------------------------------------------------------------
CROSS   ?= arm-none-eabi-
CC      := $(CROSS)gcc
OBJCOPY := $(CROSS)objcopy
SIZE    := $(CROSS)size

CPUFLAGS := -mcpu=arm926ej-s -marm -mfloat-abi=soft
# -Wno-type-limits: range checks against PAGE_OFFSET/PHYS_OFFSET are always
# true on a board whose RAM starts at 0 (versatilepb) but not on others.
CFLAGS   := $(CPUFLAGS) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-type-limits \
            -ffunction-sections -fdata-sections -fno-common \
            -I$(O)/include -Ifirmware/include -Iarch/arm/include \
            -Idrivers/include -Iboard/$(BOARD) -MMD -MP
ASFLAGS  := $(CPUFLAGS) -g -I$(O)/include -Iarch/arm/include -Iboard/$(BOARD) -MMD -MP
# Data only debug tools read (the emulator's reports) must survive --gc-sections.
LDFLAGS  := $(CPUFLAGS) -nostartfiles -T $(BOARD_LDSCRIPT) -Wl,--gc-sections \
            -Wl,--no-warn-rwx-segments -Wl,--undefined=kmap_layout -Wl,--undefined=ram_layout \
            -Wl,--undefined=thread_name_offset -Wl,--undefined=pcpu_hot_offsets
# newlib's stdio has no lock in this build: the calls that write to a
# shared stream go through arch/arm/kernel/newlib-locks.c.
WRAPPED_STDIO := printf vprintf fprintf vfprintf puts putchar putc fputc fputs fwrite fflush
LDFLAGS  += $(foreach f,$(WRAPPED_STDIO),-Wl,--wrap=$(f))
LDLIBS   := -lc -lm -lgcc

# The kernel's objects, linked in this order with marks between the groups
# (text-mark.S): the rest of the kernel (the interrupt controller's driver
# with it: its work is the dispatch), the scheduler and services, the
# devices' drivers; then the application (the image rule) and the C library.
TEXT_MARKS  := __sched_text_begin __sched_text_end __app_text_begin __app_text_end
text_mark    = $(O)/obj/text-mark/$(1).o
DEVICE_DRIVERS := $(filter-out drivers/irqchip/%,$(filter drivers/%,$(BOARD_SRCS)))
KERNEL_OBJS := $(patsubst %,$(O)/obj/%.o,$(ARCH_SRCS) $(filter-out $(DEVICE_DRIVERS),$(BOARD_SRCS)) \
                 $(filter-out firmware/kernel/%,$(FIRMWARE_SRCS))) \
               $(call text_mark,__sched_text_begin) \
               $(patsubst %,$(O)/obj/%.o,$(filter firmware/kernel/%,$(FIRMWARE_SRCS))) \
               $(call text_mark,__sched_text_end) \
               $(patsubst %,$(O)/obj/%.o,$(DEVICE_DRIVERS))
LDFLAGS     += $(foreach m,$(TEXT_MARKS),-Wl,--undefined=$(m))

# A recipe line with a quote or a redirection costs a shell, and every
# process costs several milliseconds on a small VM: the build prints with
# make's own $(info) and creates a folder only when it is missing, so an
# object costs the compiler's processes alone.
empty :=
say = $(info $(empty)  $(1))
ensure_dir = $(if $(wildcard $(1)),,$(shell mkdir -p $(1)))

$(O)/obj/%.c.o: %.c $(CONFIG_H) | bootstrap
	@$(call say,CC      $<)$(call ensure_dir,$(@D))
	@$(CC) $(CFLAGS) -c $< -o $@

$(O)/obj/text-mark/%.o: arch/arm/kernel/text-mark.S | bootstrap
	@$(call say,AS      $@)$(call ensure_dir,$(@D))
	@$(CC) $(CPUFLAGS) -DMARK=$* -c $< -o $@

$(O)/obj/%.S.o: %.S $(CONFIG_H) | bootstrap
	@$(call say,AS      $<)$(call ensure_dir,$(@D))
	@$(CC) $(ASFLAGS) -c $< -o $@

# $(call image,NAME,SOURCES): the kernel plus application sources, one of
# which defines app_main(), linked into $(O)/NAME.elf (+ .bin, .map). The
# application's objects sit between __app_text_begin and __app_text_end.
APP_TEXT_BEGIN := $(call text_mark,__app_text_begin)
APP_TEXT_END   := $(call text_mark,__app_text_end)
define image
$(O)/$(1).elf: $(KERNEL_OBJS) $(APP_TEXT_BEGIN) $(patsubst %,$(O)/obj/%.o,$(2)) $(APP_TEXT_END) $(BOARD_LDSCRIPT)
	@$$(call say,LD      $$@)$$(call ensure_dir,$$(@D))
	@$$(CC) $$(LDFLAGS) -Wl,-Map=$(O)/$(1).map -o $$@ $(KERNEL_OBJS) $(APP_TEXT_BEGIN) $(patsubst %,$(O)/obj/%.o,$(2)) $(APP_TEXT_END) $$(LDLIBS)
	@$$(OBJCOPY) -O binary $$@ $(O)/$(1).bin
endef

include firmware/apps/apps.mk
.PHONY: bench-image
bench-image: $(O)/bench.elf

include tests/target/target.mk
include tests/tests.mk

all: $(APP_ELF)
	@$(SIZE) $<

# The compiler writes these dependency files as it builds: before the first
# build there are none, and a make clean may remove one between the
# wildcard and here, so a missing one is not an error (-include). Sources
# sit at most five folders deep; make's own wildcard costs no process.
-include $(wildcard $(addprefix $(O)/obj/,*.d */*.d */*/*.d */*/*/*.d */*/*/*/*.d */*/*/*/*/*.d))

# ---- run under QEMU ---------------------------------------------------------
QEMU_RUN := tools/qemu-run.sh

# QEMU_TIMEOUT (seconds, default 300, 0: none) bounds every QEMU run.
# A board without a QEMU model (no BOARD_QEMU in its board.mk) is refused.
run: $(if $(BOARD_QEMU),$(APP_ELF),no-qemu-model)
	@RAM_MB=$(RAM_MB) $(QEMU_RUN) $<

.PHONY: no-qemu-model
no-qemu-model:
	@echo "make: board $(BOARD) has no QEMU model to run on (no BOARD_QEMU in board/$(BOARD)/board.mk): run it on the emulator with make BOARD=$(BOARD) run-vivt, or on the board with make BOARD=$(BOARD) load (docs/board-flow.md; make boards)" >&2; exit 2

debug: $(if $(BOARD_QEMU),$(APP_ELF),no-qemu-model)
	@tools/qemu-debug.sh $<

bench: bootstrap
	@PUBLISH=$(PUBLISH) tools/bench.sh $(BENCH_WAKES)

# cyclictest for Lokal (docs/latency.md): the CYCLIC_* rows of config.table
# choose the periods and the load. QEMU -icount, or vivt-emu with the pins.
.PHONY: cyclic cyclic-vivt
cyclic: bootstrap $(if $(BOARD_QEMU),$(O)/cyclic.elf,no-qemu-model)
	@tools/cyclic.sh qemu $(O)/cyclic.elf $(O)/cyclic

cyclic-vivt: bootstrap $(VEMU) $(O)/cyclic.elf
	@tools/cyclic.sh vivt $(O)/cyclic.elf $(O)/cyclic

# The long stress run: 10^6 map/unmap pairs at HZ=1000 (make check runs 10^5).
stress: bootstrap
	@make --no-print-directory O=build/stress-long STRESS_PAIRS=1000000 HZ=1000 target-images
	@QEMU_TIMEOUT=1200 $(QEMU_RUN) build/stress-long/tests/test_kmap_stress.elf

# ---- tests ------------------------------------------------------------------
check: bootstrap
	@tests/check.sh

# Every target a user may call, one per line ("  NAME  what it does");
# tests/config/check-config.sh compares this list with the targets that exist.
help:
	@echo "Lokal: make [TARGET] [VARIABLE=VALUE ...]"
	@echo "Build and run (QEMU: -M versatilepb, or BOARD=ast2400-palmetto for -M palmetto-bmc):"
	@echo "  all               build $(O)/lokal.elf (.bin, .map); the default"
	@echo "  run               boot it under qemu-system-arm and run the demo"
	@echo "  shell             the console shell under QEMU (the image a board boots; piped input works)"
	@echo "  debug             QEMU halted with a gdb stub, gdb-multiarch attached (lokal ps/kmaps/bt/trace)"
	@echo "  boards            the boards, and what runs where (QEMU, emulator, hardware)"
	@echo "  docs              docs/api.md, the API reference, from the public headers' comments"
	@echo "The ARM926 emulator with a D-cache model and cache oracle (tools/vivt-emu):"
	@echo "  vivt-emu          build it: build/vivt-emu/vivt-emu (--help lists its options)"
	@echo "  run-vivt          run $(O)/lokal.elf on it (the boards it models, e.g. BOARD=at91sam9g20-ek)"
	@echo "Benchmarks and long runs:"
	@echo "  bench             benchmarks under -icount (docs/bench.md)"
	@echo "  cyclic            timer-to-handler and timer-to-thread latency under load, QEMU -icount (CYCLIC_*)"
	@echo "  cyclic-vivt       the same on vivt-emu, with the pins' figures beside the firmware's"
	@echo "  stress            the long kmap stress run (10^6 map/unmap pairs)"
	@echo "  fuzz              a long libFuzzer run against the cache model"
	@echo "A real board (docs/board-flow.md):"
	@echo "  load              load $(O)/shell.elf over JTAG and run it"
	@echo "  flash             write the NOR image (boot stub + shell) and reset into it"
	@echo "  nor-image         build that NOR image only"
	@echo "  debug-board       OpenOCD + gdb-multiarch on the board, halted after reset"
	@echo "Tests (each check-* phase runs alone, ends non-zero on a failure):"
	@echo "  check             every phase, two lanes; ends with 'N passed, N failed'"
	@awk -F' *[|] *' '!/^#/ && NF >= 3 { printf "  %-17s %s\n", "check-" $$1, $$3 }' tests/phases.txt
	@echo "  board-mutants-BOARD  a board's driver mutants alone (board/BOARD/mutants.list)"
	@echo "Images only:"
	@echo "  shell-image       $(O)/shell.elf"
	@echo "  bench-image       $(O)/bench.elf"
	@echo "  target-images     the target test images"
	@echo "  host-tests        the host test binaries"
	@echo "  host-sched-tests  the host scheduler test binaries"
	@echo "Other:"
	@echo "  config-limits     each variable's range on this board"
	@echo "  bootstrap         install the Debian packages the build needs (tools/bootstrap.sh)"
	@echo "  clean             remove build/ (and O=DIR when it holds a build)"
	@echo "  help              this list"
	@echo "Variables: $(CONFIG_VARS) O (make config-limits gives their ranges on this board)"

.PHONY: boards
boards:
	@tools/boards.sh

# The API reference, docs/api.md, from the public headers' comments
# (check-tools fails when it is stale or a public function has none).
.PHONY: docs
docs:
	@python3 tools/api-doc.py > docs/api.md.tmp && mv docs/api.md.tmp docs/api.md
	@echo "docs: wrote docs/api.md"

clean:
	rm -rf build
	@if [ -e '$(O)/include/generated/config.h' ]; then echo "rm -rf $(O)"; rm -rf '$(O)'; fi
