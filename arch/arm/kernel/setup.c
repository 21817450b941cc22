/* Early machine setup and the boot banner. */
#include <stdio.h>
#include <stdint.h>
#include <asm/setup.h>
#include <asm/cp15.h>
#include <asm/mach.h>
#include <asm/memory.h>

void arch_mmu_init(void);
void arch_setup(void);

extern char __kernel_end[];

/* Called from head.S with caches and MMU off and .bss cleared. */
void arch_setup(void)
{
	board_early_init();
	arch_mmu_init();
	board_init_irq();
	board_init();
}

phys_addr_t arch_kernel_end(void)
{
	return (__pa(__kernel_end) + PAGE_SIZE - 1) & PAGE_MASK;
}

/* Decode one half of the ARMv5 cache type register (size, ways, line). */
static void print_cache(const char *name, uint32_t field)
{
	unsigned int m = (field >> 2) & 1;
	/* ARMv5 ARM: M multiplies size and ways by 1.5. */
	unsigned int size = (512u << ((field >> 6) & 0xf)) * (m ? 3 : 2) / 2;
	unsigned int assoc = (field >> 3) & 7;
	unsigned int ways = ((1u << assoc) * (m ? 3 : 2)) / 2;
	unsigned int line = 8u << (field & 3);

	printf("  %s-cache: %u KiB, %u-way, %u-byte lines\n", name, size / 1024, ways, line);
}

void arch_print_banner(void)
{
	uint32_t id = read_cpuid();
	uint32_t ct = read_cachetype();
	uint32_t cr = get_cr();

	printf("CPU: id 0x%08lx (implementer 0x%02lx, part 0x%03lx, rev %lu)\n",
	       (unsigned long)id, (unsigned long)(id >> 24),
	       (unsigned long)((id >> 4) & 0xfff), (unsigned long)(id & 0xf));
	/* A real ARM926EJ-S reads ctype 0xe; QEMU's model reports 0. */
	printf("Cache type 0x%08lx: ctype 0x%lx%s, %s, %s\n", (unsigned long)ct,
	       (unsigned long)((ct >> 25) & 0xf),
	       ((ct >> 25) & 0xf) == 0xe ? " (write-back, c7 clean/invalidate)" : "",
	       (ct >> 24) & 1 ? "separate I/D" : "unified",
	       "VIVT (ARMv5: virtually indexed, virtually tagged)");
	print_cache("D", (ct >> 12) & 0xfff);
	print_cache("I", ct & 0xfff);
	printf("SCTLR 0x%08lx: MMU %s, D-cache %s, I-cache %s, write buffer %s, "
	       "alignment check %s, vectors %s\n", (unsigned long)cr,
	       cr & CR_M ? "on" : "OFF", cr & CR_C ? "on" : "OFF", cr & CR_I ? "on" : "OFF",
	       cr & CR_W ? "on" : "off", cr & CR_A ? "on" : "off",
	       cr & CR_V ? "high (0xffff0000)" : "low");
	printf("RAM: %lu MiB at 0x%08lx: lowmem %lu MiB (direct map), highmem %lu MiB (kmap only)\n",
	       RAM_SIZE >> 20, (unsigned long)PHYS_OFFSET, LOWMEM_SIZE >> 20,
	       (RAM_SIZE - LOWMEM_SIZE) >> 20);
}
