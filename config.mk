# The build configuration, from config.table: each variable's default, the
# range checks that run before anything is built (so a bad value stops make
# with one line naming the variable and its range instead of a C error, a
# hang or a crash at run time), `make config-limits` and the generated
# config.h. A new variable is a row in config.table; nothing here changes.

CONFIG_TABLE := config.table
ifeq ($(wildcard $(CONFIG_TABLE)),)
$(error $(CONFIG_TABLE) is missing: it lists every configuration variable)
endif
# Each word is one assignment (blanks written as ^; tools/config-table.awk).
$(foreach w,$(shell awk -f tools/config-table.awk $(CONFIG_TABLE)),$(eval $(subst ^, ,$(w))))
ifneq ($(CFG_TABLE_ERROR),)
$(error $(CFG_TABLE_ERROR))
endif
# BOARD comes first: every other row is looked up for the board.
ifneq ($(firstword $(CFG_VARS)),BOARD)
$(error $(CONFIG_TABLE): the first row must be BOARD's, as the other rows depend on the board)
endif
CONFIG_VARS := $(CFG_VARS)

# $(call cfg_row,NAME): "DEFAULT MIN MAX WHY..." of NAME on $(BOARD): the
# board's row, else the `any` row. A `-` default in a board's row is the
# `any` row's.
cfg_row = $(or $(CFG.$(1).$(BOARD)),$(CFG.$(1).any))
cfg_default = $(patsubst -,$(firstword $(CFG.$(1).any)),$(firstword $(call cfg_row,$(1))))
cfg_min = $(word 2,$(call cfg_row,$(1)))
cfg_max = $(word 3,$(call cfg_row,$(1)))
cfg_why = $(wordlist 4,999,$(call cfg_row,$(1)))

BOARD ?= $(firstword $(CFG.BOARD.any))
BOARDS_AVAILABLE := $(patsubst board/%/board.mk,%,$(wildcard board/*/board.mk))
ifeq ($(filter $(BOARD),$(BOARDS_AVAILABLE)),)
$(error BOARD=$(BOARD) is not a board: choose one of $(BOARDS_AVAILABLE) (folders under board/ with a board.mk))
endif
$(foreach v,$(CONFIG_VARS),$(if $(call cfg_row,$(v)),,\
$(error $(CONFIG_TABLE) has no row for $(v) on $(BOARD) and no `any` row for it: add "$(v) $(BOARD) DEFAULT MIN..MAX why")))
$(foreach v,$(CONFIG_VARS),$(if $(filter -,$(call cfg_default,$(v))),\
$(error $(CONFIG_TABLE): $(v)'s row for $(BOARD) says `-` (the `any` default) but there is no `any` row)))
$(foreach v,$(filter-out BOARD,$(CONFIG_VARS)),$(eval $(v) ?= $(call cfg_default,$(v))))

# O is not configuration but where it is built; one per board by default.
O ?= build/$(BOARD)
ifneq ($(words $(O)),1)
$(error O=$(O) must name one build directory, e.g. O=build/mine (an empty O would build into /))
endif
# O is a directory make owns (it builds there, make clean removes it): not
# /, the source tree, a system directory or one holding other files.
O_SHELL_CHARS := ' " ` \ ; & | < > * ? ( ) [ ] { } !
$(foreach c,$(O_SHELL_CHARS),$(if $(findstring $(c),$(O)),\
$(error O=$(O) holds the character $(c): give a plain path such as O=build/mine)))
# A folder under build/ that is no link to elsewhere needs no script: the
# usual case, and every make run pays for the check.
O_UNDER_BUILD := $(if $(filter $(realpath $(CURDIR))/build/%,$(abspath $(O))),$(filter $(abspath $(O)),$(realpath $(O))))
O_PROBLEM := $(if $(O_UNDER_BUILD),,$(shell tools/check-build-dir.sh '$(O)' '$(realpath $(CURDIR))'))
ifneq ($(O_PROBLEM),)
$(error $(O_PROBLEM))
endif
include board/$(BOARD)/board.mk
# What every board folder has (board/README.md, "What a board provides"),
# and its optional inline IRQ path, which board.mk declares.
$(foreach f,board.h board_marker.h $(notdir $(BOARD_LDSCRIPT)),$(if $(wildcard board/$(BOARD)/$(f)),,\
$(error board/$(BOARD)/$(f) is missing: every board has one (board/README.md, "What a board provides"))))
ifeq ($(filter yes,$(BOARD_IRQ_INLINE)),yes)
ifeq ($(wildcard board/$(BOARD)/board_irq.h),)
$(error board/$(BOARD)/board.mk says BOARD_IRQ_INLINE := yes but board/$(BOARD)/board_irq.h is missing)
endif
else ifneq ($(wildcard board/$(BOARD)/board_irq.h),)
$(error board/$(BOARD)/board_irq.h is there but board/$(BOARD)/board.mk does not declare it: add BOARD_IRQ_INLINE := yes (or remove the file))
endif

comma := ,
cfg_nondigits = $(strip $(eval cfg_s := $(1))$(foreach d,0 1 2 3 4 5 6 7 8 9,$(eval cfg_s := $(subst $(d),,$(cfg_s))))$(cfg_s))

# $(call cfg_uint,VAR,EXAMPLE): VAR's value if it is a plain decimal number
# (no sign, no leading zero: C would read 010 as 8), else stop.
cfg_uint = $(if $(or $(filter-out 1,$(words $($(1)))),$(call cfg_nondigits,$($(1))),$(filter 0%,$(filter-out 0,$($(1))))),$(error $(1)=$($(1)) is not a number: give a decimal integer without sign or leading zero$(comma) e.g. $(1)=$(2)),$(strip $($(1))))

# Every variable with a MIN..MAX range (all but BOARD), in table order, so
# a variable another one's range names is checked before it.
CFG_NUMERIC := $(foreach v,$(CONFIG_VARS),$(if $(filter -,$(call cfg_min,$(v))),,$(v)))

# Stop unless every numeric variable is a number within its limits. Every
# value is checked to be a number first, in table order; then one shell
# (every make run parses this, and a process costs more than the test)
# names the first variable out of its range.
CFG_RANGES := $(foreach v,$(CFG_NUMERIC),$(v):$(call cfg_uint,$(v),$(call cfg_min,$(v))):$(call cfg_min,$(v)):$(call cfg_max,$(v)))
CFG_OUT_OF_RANGE := $(shell for c in $(CFG_RANGES); do IFS=:; set -- $$c; \
	[ "$$2" -ge "$$3" ] 2>/dev/null && [ "$$2" -le "$$4" ] 2>/dev/null || { echo "$$1"; break; }; done)
$(foreach v,$(firstword $(CFG_OUT_OF_RANGE)),\
$(error $(v)=$($(v)) is out of range: $(v) must be $(call cfg_min,$(v))..$(call cfg_max,$(v)) on $(BOARD) ($(call cfg_why,$(v)))))

# Rules a range cannot state.
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
# board (tests/config/check-config.sh tests every one).
.PHONY: config-limits
config-limits:
	@$(foreach v,$(CFG_NUMERIC),echo "$(v) $(call cfg_min,$(v)) $(call cfg_max,$(v))";)

# ---- generated configuration ------------------------------------------------
# $(call write_config,PATH): every variable as CONFIG_<NAME> (BOARD as a
# string), and a numeric one's range on the board as CONFIG_<NAME>_MIN and
# _MAX (for code that checks a value given at run time, such as a shell
# command's argument, against the same limits); where NAME_EFFECTIVE is
# defined (another variable overrides NAME) it is what the code gets. The header is written only when its
# content changes, so a new value rebuilds everything and an unchanged one
# rebuilds nothing. Expanded in the recipe, so target-specific overrides
# (the host tests' configurations) reach it.
cfg_c_value = $(if $(filter $(1),$(CFG_NUMERIC)),$(if $(filter undefined,$(origin $(1)_EFFECTIVE)),$($(1)),$($(1)_EFFECTIVE)),"$($(1))")
define write_config
	@mkdir -p $(dir $(1))
	@{ echo '/* Generated from config.table and the make variables; do not edit. */'; \
	   echo '#ifndef GENERATED_CONFIG_H'; echo '#define GENERATED_CONFIG_H'; \
	   $(foreach v,$(CONFIG_VARS),echo '#define CONFIG_$(v) $(call cfg_c_value,$(v))';) \
	   $(foreach v,$(CFG_NUMERIC),echo '#define CONFIG_$(v)_MIN $(call cfg_min,$(v))'; \
	                              echo '#define CONFIG_$(v)_MAX $(call cfg_max,$(v))';) \
	   echo '#define CONFIG_BOARD_IRQ_INLINE $(if $(filter yes,$(BOARD_IRQ_INLINE)),1,0)'; \
	   echo '#endif'; } > $(1).tmp
	@cmp -s $(1).tmp $(1) && rm -f $(1).tmp || mv $(1).tmp $(1)
endef

CONFIG_H := $(O)/include/generated/config.h
$(CONFIG_H): FORCE
	$(call write_config,$@)
