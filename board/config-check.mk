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
ifneq ($(words $(O)),1)
$(error O=$(O) must name one build directory, e.g. O=build/mine (an empty O would build into /))
endif
# O is a directory make owns (it builds there, make clean removes it): not
# /, the source tree, a system directory or one holding other files.
O_SHELL_CHARS := ' " ` \ ; & | < > * ? ( ) [ ] { } !
$(foreach c,$(O_SHELL_CHARS),$(if $(findstring $(c),$(O)),\
$(error O=$(O) holds the character $(c): give a plain path such as O=build/mine)))
O_PROBLEM := $(shell tools/check-build-dir.sh '$(O)' '$(realpath $(CURDIR))')
ifneq ($(O_PROBLEM),)
$(error $(O_PROBLEM))
endif
include board/$(BOARD)/board.mk
$(foreach l,BOARD_RAM_MB_MAX BOARD_LOWMEM_MB_MIN BOARD_HZ_MIN BOARD_HZ_MAX,$(if $($(l)),,\
$(error board/$(BOARD)/board.mk does not set $(l): every board states its limits (board/README.md))))

comma := ,
cfg_nondigits = $(strip $(eval cfg_s := $(1))$(foreach d,0 1 2 3 4 5 6 7 8 9,$(eval cfg_s := $(subst $(d),,$(cfg_s))))$(cfg_s))

# $(call cfg_uint,VAR,EXAMPLE): VAR's value if it is a plain decimal number
# (no sign, no leading zero: C would read 010 as 8), else stop.
cfg_uint = $(if $(or $(filter-out 1,$(words $($(1)))),$(call cfg_nondigits,$($(1))),$(filter 0%,$(filter-out 0,$($(1))))),$(error $(1)=$($(1)) is not a number: give a decimal integer without sign or leading zero$(comma) e.g. $(1)=$(2)),$(strip $($(1))))

# Each numeric variable's range: MIN MAX, then why, for the error message.
CFG_LIMITS_RAM_MB       := $(BOARD_LOWMEM_MB_MIN) $(BOARD_RAM_MB_MAX) $(BOARD_RAM_MB_WHY)
CFG_LIMITS_LOWMEM_MB    := $(BOARD_LOWMEM_MB_MIN) $(RAM_MB) at least what the image$(comma) its heap and page array need; at most RAM_MB
CFG_LIMITS_HZ           := $(BOARD_HZ_MIN) $(BOARD_HZ_MAX) $(BOARD_HZ_WHY)
CFG_LIMITS_DEBUG_HIGHMEM := 0 1 off or on
CFG_LIMITS_KMAP_DEFER   := 0 1 off or on
CFG_LIMITS_LAST_PKMAP   := 1 512 a power of two: the pkmap area holds 512 pages
CFG_LIMITS_BENCH_WAKES  := 1 1000000 one 4-byte latency each on the 4 MiB heap
CFG_LIMITS_STRESS_PAIRS := 1 1000000000 a 32-bit count
CFG_NUMERIC := RAM_MB LOWMEM_MB HZ DEBUG_HIGHMEM KMAP_DEFER LAST_PKMAP BENCH_WAKES STRESS_PAIRS

# $(call cfg_range,VAR): stop unless VAR is a number within its limits.
define cfg_range
$(if $(shell [ $(call cfg_uint,$(1),$(firstword $(CFG_LIMITS_$(1)))) -ge $(word 1,$(CFG_LIMITS_$(1))) ] 2>/dev/null && \
             [ $($(1)) -le $(word 2,$(CFG_LIMITS_$(1))) ] && echo ok),,\
$(error $(1)=$($(1)) is out of range: $(1) must be $(word 1,$(CFG_LIMITS_$(1)))..$(word 2,$(CFG_LIMITS_$(1))) on $(BOARD) ($(wordlist 3,99,$(CFG_LIMITS_$(1))))))
endef

$(foreach v,$(CFG_NUMERIC),$(call cfg_range,$(v)))
$(if $(filter $(LAST_PKMAP),1 2 4 8 16 32 64 128 256 512),,\
$(error LAST_PKMAP=$(LAST_PKMAP) must be a power of two from 1 to 512 (the pkmap area holds 512 pages)))
# The lazy restore kept PTEs across a switch and saved 3.6 %; the deferred
# flush keeps the lines as well and saves far more, so the lazy one is gone.
ifneq ($(origin KMAP_LAZY),undefined)
$(error KMAP_LAZY is gone: the lazy restore was retired for the deferred flush; use KMAP_DEFER=1 (or KMAP_DEFER=0 for Linux's eager scheme) and drop KMAP_LAZY)
endif
# DEBUG_HIGHMEM keeps the eager teardown, so a stray pointer into a switched-out slot still faults.
KMAP_DEFER_EFFECTIVE = $(if $(filter 1,$(DEBUG_HIGHMEM)),0,$(KMAP_DEFER))
ifeq ($(DEBUG_HIGHMEM)$(KMAP_DEFER)$(origin KMAP_DEFER),11command line)
$(info note: DEBUG_HIGHMEM=1 forces the eager kmap teardown: KMAP_DEFER=1 is ignored in this build)
endif

# `make config-limits`: "NAME MIN MAX" for each numeric variable on this
# board (tools/check-config.sh tests every one).
.PHONY: config-limits
config-limits:
	@$(foreach v,$(CFG_NUMERIC),echo "$(v) $(wordlist 1,2,$(CFG_LIMITS_$(v)))";)
