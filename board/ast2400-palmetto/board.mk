# ASPEED AST2400 on a Palmetto-style board (QEMU: -M palmetto-bmc).
# UNTESTED ON HARDWARE (see board/README.md).
BOARD_SRCS := board/ast2400-palmetto/board.c \
              drivers/irqchip/aspeed_vic.c drivers/aspeed_timer.c drivers/ns16550.c \
              drivers/aspeed_gpio.c drivers/aspeed_xdma.c drivers/aspeed_wdt.c \
              drivers/aspeed_scu.c
BOARD_LDSCRIPT := board/ast2400-palmetto/lokal.ld
BOARD_OPENOCD_CFG := board/ast2400-palmetto/openocd.cfg
# QEMU's AST2400 SDRAM controller takes 64, 128, 256 or 512 MiB only: the
# machine gets the smallest of those that holds RAM_MB (the firmware uses
# RAM_MB of it).
AST2400_QEMU_MB = $(firstword $(foreach m,64 128 256 512,$(if $(filter $(RAM_MB),$(call ast2400_upto,$(m))),$(m))))
# The sizes RAM_MB may take (config.table: 8..512) up to M MiB, in MiB steps
# of one; make has no comparison, and a shell per make run costs a process.
ast2400_upto = $(wordlist 1,$(1),$(ast2400_mbs))
ast2400_mbs := $(filter-out 0,$(foreach h,0 1 2 3 4 5,$(foreach t,0 1 2 3 4 5 6 7 8 9,$(foreach u,0 1 2 3 4 5 6 7 8 9,$(patsubst 0%,%,$(patsubst 0%,%,$(h)$(t)$(u)))))))
BOARD_QEMU = qemu-system-arm -M palmetto-bmc -m $(AST2400_QEMU_MB)M
# The configuration make check-vivt-ast2400-palmetto builds its demo run in (the
# default 256 MiB demo takes 2 G instructions; 64 MiB proves the same in a
# quarter of them).
BOARD_VIVT_DEMO_VARS = RAM_MB=64 LOWMEM_MB=16 LAST_PKMAP=16
