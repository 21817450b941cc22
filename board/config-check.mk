# Every configuration variable checked against its limits before anything
# is built, so a bad value stops make with one line naming the variable and
# the limit instead of a C error, a hang or a crash at run time.
#
# The board's board.mk gives the limits that depend on the hardware:
#   BOARD_RAM_MB_MAX      RAM the board (or its QEMU model) has at most
#   BOARD_LOWMEM_MB_MIN   lowmem the image, its heap and page array need
#   BOARD_HZ_MIN/MAX      tick rates its tick timer can produce and keep up with
# The rest are limits of the kernel itself.

BOARDS_AVAILABLE := $(patsubst board/%/board.mk,%,$(wildcard board/*/board.mk))
ifeq ($(filter $(BOARD),$(BOARDS_AVAILABLE)),)
$(error BOARD=$(BOARD) is not a board: choose one of $(BOARDS_AVAILABLE) (folders under board/ with a board.mk))
endif
include board/$(BOARD)/board.mk

comma := ,
cfg_nondigits = $(strip $(eval cfg_s := $(1))$(foreach d,0 1 2 3 4 5 6 7 8 9,$(eval cfg_s := $(subst $(d),,$(cfg_s))))$(cfg_s))

# $(call cfg_uint,VAR,EXAMPLE): VAR's value if it is a plain decimal number
# (no sign, no leading zero: C would read 010 as 8), else stop.
cfg_uint = $(if $(or $(filter-out 1,$(words $($(1)))),$(call cfg_nondigits,$($(1))),$(filter 0%,$(filter-out 0,$($(1))))),$(error $(1)=$($(1)) is not a number: give a decimal integer without sign or leading zero$(comma) e.g. $(1)=$(2)),$(strip $($(1))))

# $(call cfg_range,VAR,MIN,MAX,WHY): stop unless MIN <= VAR <= MAX.
define cfg_range
$(if $(shell [ $(call cfg_uint,$(1),$(2)) -ge $(2) ] 2>/dev/null && [ $($(1)) -le $(3) ] && echo ok),,\
$(error $(1)=$($(1)) is out of range: $(1) must be $(2)..$(3) on $(BOARD)$(if $(4), ($(strip $(4))))))
endef

# $(call cfg_bool,VAR): 0 or 1.
cfg_bool = $(if $(filter-out 0 1,$(call cfg_uint,$(1),1)),$(error $(1)=$($(1)) must be 0 or 1))

# Powers of two up to the pkmap area's 512 pages (two second-level tables).
CFG_PKMAP_SIZES := 1 2 4 8 16 32 64 128 256 512

$(call cfg_range,RAM_MB,$(BOARD_LOWMEM_MB_MIN),$(BOARD_RAM_MB_MAX),$(BOARD_RAM_MB_WHY))
$(call cfg_range,LOWMEM_MB,$(BOARD_LOWMEM_MB_MIN),$(RAM_MB),at least what the image$(comma) its heap and page array need; at most RAM_MB=$(RAM_MB))
$(call cfg_range,HZ,$(BOARD_HZ_MIN),$(BOARD_HZ_MAX),$(BOARD_HZ_WHY))
$(call cfg_bool,DEBUG_HIGHMEM)
$(call cfg_bool,KMAP_LAZY)
$(if $(filter $(call cfg_uint,LAST_PKMAP,512),$(CFG_PKMAP_SIZES)),,\
$(error LAST_PKMAP=$(LAST_PKMAP) must be a power of two from 1 to 512 (the pkmap area holds 512 pages)))
$(call cfg_range,BENCH_WAKES,1,1000000,one 4-byte latency each on the 4 MiB heap)
$(call cfg_range,STRESS_PAIRS,1,1000000000,a 32-bit count)
