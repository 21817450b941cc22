# Portable kernel sources (every image links all of them; apps are separate),
# with exactly one kmap scheme (firmware/mm/kmap_scheme.h).
KMAP_SCHEMES := firmware/mm/kmap_eager.c firmware/mm/kmap_defer.c
# $(call kmap_scheme_src,DEBUG_HIGHMEM,KMAP_DEFER): the scheme a build with
# those values links. DEBUG_HIGHMEM's guard slots and faulting switched-out
# slots need the eager one.
kmap_scheme_src = firmware/mm/kmap_$(if $(filter 1,$(1)),eager,$(if $(filter 1,$(2)),defer,eager)).c
FIRMWARE_SRCS := $(filter-out $(KMAP_SCHEMES),$(sort $(wildcard firmware/kernel/*.c firmware/mm/*.c firmware/lib/*.c))) \
                 $(call kmap_scheme_src,$(DEBUG_HIGHMEM),$(KMAP_DEFER))
# $(call with_kmap_scheme,SOURCES,MAKE-ASSIGNMENTS): SOURCES with the scheme
# a build configured by assignments such as "KMAP_DEFER=0" links (host
# tests); what the assignments do not set keeps its make value.
kmap_opt = $(if $(filter $(1)=%,$(2)),$(patsubst $(1)=%,%,$(filter $(1)=%,$(2))),$($(1)))
with_kmap_scheme = $(filter-out $(KMAP_SCHEMES),$(1)) \
                   $(call kmap_scheme_src,$(call kmap_opt,DEBUG_HIGHMEM,$(2)),$(call kmap_opt,KMAP_DEFER,$(2)))
