/*
 * The kmap address layout of this image, as data: debug tools (the VIVT
 * emulator's reports, a gdb session) name a kmap_local slot or a pkmap
 * index from the image they run, not from constants of their own that a
 * configuration (DEBUG_HIGHMEM's guard slots, LAST_PKMAP) would outdate.
 */
#include <stdint.h>
#include <asm/fixmap.h>
#include <asm/highmem.h>

struct kmap_layout {
	uint32_t slot0_vaddr;   /* kmap_local slot 0; slot n is n pages below */
	uint32_t nr_slots;      /* KM_MAX_IDX, guard slots included */
	uint32_t pkmap_base;    /* pkmap index n is n pages above */
	uint32_t nr_pkmap;      /* LAST_PKMAP */
};

const struct kmap_layout kmap_layout __attribute__((used)) = {
	.slot0_vaddr = __fix_to_virt(FIX_KMAP_BEGIN),
	.nr_slots = KM_MAX_IDX,
	.pkmap_base = PKMAP_BASE,
	.nr_pkmap = LAST_PKMAP,
};
