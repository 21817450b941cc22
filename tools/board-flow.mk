# Real-board flow (docs/board-flow.md): load, flash and debug over JTAG with
# OpenOCD, and the hardware-free checks of it.
#
#   make load          load $(O)/shell.elf into RAM over JTAG and run it: the
#                      banner, then the console shell (firmware/apps/shell)
#   make flash         write $(O)/nor.bin (boot stub + image) to NOR, verify, reset
#   make debug-board   OpenOCD + gdb-multiarch, symbols loaded, halted after reset
#   make check-openocd / check-boards   TAP lines into $(TAP)
#
# ADAPTER=<openocd interface script> picks the JTAG adapter (default: the
# FT2232H Olimex ARM-USB-OCD-H named in the board's OpenOCD config).
# A board may set BOARD_OPENOCD_CFG in its board.mk; the default is the
# top-level openocd.cfg (Versatile/PB926EJ-S). A board that boots from NOR
# provides board/<board>/nor-boot.S.

.PHONY: load flash debug-board nor-image check-openocd check-boards

OPENOCD           ?= openocd
ADAPTER           ?=
BOARD_OPENOCD_CFG ?= openocd.cfg
BOARD_NOR_STUB    ?= $(wildcard board/$(BOARD)/nor-boot.S)
NM                := $(CROSS)nm

# A board boots to the shell: `demo` runs the demo, `bench` the benchmarks.
BOARD_ELF := $(O)/shell.elf
BOARD_BIN  = $(BOARD_ELF:.elf=.bin)
NOR_BIN   := $(O)/nor.bin

# OpenOCD with the board's config; the adapter override goes first so the
# config sees it.
OPENOCD_CMD = $(OPENOCD) $(if $(ADAPTER),-c 'set ADAPTER $(ADAPTER)') -f $(BOARD_OPENOCD_CFG)

# $(call elf_sym,ELF,SYMBOL): 0x-prefixed address of SYMBOL, read at recipe time.
elf_sym = 0x$$($(NM) $(1) | awk '$$3 == "$(2)" { print $$1 }')

# $(call no_board,TARGET): what to say when OpenOCD could not do its job.
define no_board
{ echo; \
  echo "make $(1): FAILED: OpenOCD could not reach or drive the board."; \
  echo "  - adapter: $(if $(ADAPTER),$(ADAPTER),the default in $(BOARD_OPENOCD_CFG)); is it plugged in (lsusb)"; \
  echo "    and readable by you (udev rule for OpenOCD)? Another adapter: make $(1) ADAPTER=interface/<name>.cfg"; \
  echo "  - board powered, JTAG ribbon on the board's 20-pin JTAG header, nothing else holding the port"; \
  echo "  - the OpenOCD messages above name the step that failed (docs/board-flow.md, Troubleshooting)"; \
  exit 1; }
endef

load: $(BOARD_ELF)
	@echo "load: $(BOARD_ELF) -> RAM over JTAG with $(BOARD_OPENOCD_CFG), then run it (console: the board's serial port)"
	@entry=$(call elf_sym,$(BOARD_ELF),_start); \
	 $(OPENOCD_CMD) -c "gdb_port disabled; telnet_port disabled; tcl_port disabled" \
	   -c "init; lokal_load $(BOARD_ELF) $$entry; shutdown" || $(call no_board,load)

ifneq ($(BOARD_NOR_STUB),)
# The stub carries the image (.incbin) and is linked at the NOR base, which
# the board names in board.h as BOARD_FLASH_BASE.
$(NOR_BIN): $(BOARD_ELF) $(BOARD_NOR_STUB)
	@echo "  NOR     $@ (boot stub + $(BOARD_BIN))"
	@flash=$$(printf '#include <board.h>\nBOARD_FLASH_BASE\n' | \
	          $(CC) -E -P -Iboard/$(BOARD) - | tail -n 1 | tr -d 'uU'); \
	 $(CC) $(CPUFLAGS) -nostdlib -nostartfiles -Wl,--no-warn-rwx-segments \
	   -Wl,-Ttext=$$flash -Wl,-e,_nor_start \
	   -DIMAGE='"$(BOARD_BIN)"' \
	   -DLOAD_ADDR=$(call elf_sym,$(BOARD_ELF),__kernel_start) \
	   -DENTRY=$(call elf_sym,$(BOARD_ELF),_start) \
	   -o $(O)/nor.elf $(BOARD_NOR_STUB) && \
	 $(OBJCOPY) -O binary $(O)/nor.elf $@

nor-image: $(NOR_BIN)

flash: $(NOR_BIN)
	@echo "flash: $(NOR_BIN) -> NOR at its base (the reset alias) with $(BOARD_OPENOCD_CFG):"
	@echo "       the old contents of that range are saved to $(O)/nor-backup.bin first,"
	@echo "       then erase, program, verify, and reset into Lokal"
	@$(OPENOCD_CMD) -c "gdb_port disabled; telnet_port disabled; tcl_port disabled" \
	   -c "init; lokal_flash $(NOR_BIN) $(O)/nor-backup.bin; shutdown" || $(call no_board,flash)
else
nor-image flash:
	@echo "make $@: board $(BOARD) has no NOR boot path (no board/$(BOARD)/nor-boot.S); use make load"; exit 1
endif

debug-board: $(BOARD_ELF)
	@echo "debug-board: OpenOCD ($(BOARD_OPENOCD_CFG)) halts the board after reset init;"
	@echo "             gdb-multiarch loads $(BOARD_ELF) over JTAG, breaks at start_kernel"
	@tools/board-debug.sh $(BOARD_ELF) $(O)/openocd-debug.log $(OPENOCD_CMD) || $(call no_board,debug-board)

# ---- checks without hardware ---------------------------------------------
check-openocd: bootstrap
	@tests/boards/check-openocd.sh $(if $(TAP),$(TAP),/dev/stdout)

check-boards: bootstrap
	@tests/boards/check-boards.sh $(if $(TAP),$(TAP),/dev/stdout)
