# Applications: one folder each under firmware/apps/, holding its C files
# (one of them defines app_main()) and an app.mk that declares it, usually
# in one line:
#     $(eval $(call app,NAME))
# which links every .c file of firmware/apps/NAME/ with the kernel into
# $(O)/NAME.elf. `make APP=NAME` builds it; run, run-vivt and debug run it
# (QEMU, vivt-emu, QEMU with gdb). Without APP it is the demo, $(O)/lokal.elf.
# Included from the Makefile after its `image` macro.

# $(call app,NAME[,IMAGE]): application NAME built from firmware/apps/NAME/*.c
# into $(O)/IMAGE.elf (IMAGE: NAME unless given). An application may run
# other applications' parts: APP_USES.NAME, set before the call, names
# them; each one's sources but its main.c (where its app_main() lives) are
# linked in, and its folder is on NAME's include path.
define app
APP_IMAGE.$(1) := $(or $(2),$(1))
$$(foreach u,$$(APP_USES.$(1)),$$(if $$(wildcard firmware/apps/$$(u)/app.mk),,$$(error firmware/apps/$(1)/app.mk: APP_USES.$(1) names $$(u), which is not an application (no firmware/apps/$$(u)/app.mk))))
$(O)/obj/firmware/apps/$(1)/%: CFLAGS += $$(patsubst %,-Ifirmware/apps/%,$$(APP_USES.$(1)))
$$(eval $$(call image,$(or $(2),$(1)),$$(sort $$(wildcard firmware/apps/$(1)/*.c)) \
	$$(foreach u,$$(APP_USES.$(1)),$$(filter-out firmware/apps/$$(u)/main.c,$$(sort $$(wildcard firmware/apps/$$(u)/*.c))))))
endef

APPS := $(sort $(patsubst firmware/apps/%/app.mk,%,$(wildcard firmware/apps/*/app.mk)))
include $(patsubst %,firmware/apps/%/app.mk,$(APPS))

APP ?= demo
ifneq ($(words $(APP)),1)
$(error APP='$(APP)' must name one application: one of $(APPS) (folders under firmware/apps/ with an app.mk))
endif
ifeq ($(filter $(APP),$(APPS)),)
$(error APP=$(APP) is not an application: choose one of $(APPS) (folders under firmware/apps/ with an app.mk; docs/user-guide.md's "Your own application" adds one))
endif
ifeq ($(APP_IMAGE.$(APP)),)
$(error firmware/apps/$(APP)/app.mk declares no image: it needs the line $$(eval $$(call app,$(APP))))
endif
# The image that all, run, run-vivt and debug build and run.
APP_ELF := $(O)/$(APP_IMAGE.$(APP)).elf
