/*
 * The RAM this image was built for, as data: the VIVT emulator refuses to
 * run it on a machine that has less (the missing part would read back as
 * another part's data, not as an error) or has it elsewhere.
 */
#include <stdint.h>
#include <asm/memory.h>

struct ram_layout {
	uint32_t base;          /* PHYS_OFFSET */
	uint32_t bytes;         /* RAM_SIZE: CONFIG_RAM_MB MiB */
};

const struct ram_layout ram_layout __attribute__((used)) = {
	.base = PHYS_OFFSET,
	.bytes = RAM_SIZE,
};
