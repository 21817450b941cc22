/*
 * Loading a Lokal ELF unchanged: every PT_LOAD segment goes to the RAM or
 * the flash its physical address names, and every CP15 site in an
 * executable segment is hooked at its virtual address.  An image that
 * something else copies into place (the kernel inside the NOR image) is
 * read for its CP15 sites only (load = false).
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "vemu.h"

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		*len = (size_t)n;
	}
	fclose(f);
	return buf;
}

/* Where the physical range [pa, pa+len) lives on the host, or NULL. */
static uint8_t *host_range(struct vemu *vm, uint32_t pa, uint32_t len)
{
	const struct machine_desc *m = vm->mach;

	if (pa >= m->ram_base && pa - m->ram_base <= vm->ram_size && len <= vm->ram_size - (pa - m->ram_base))
		return vm->ram + (pa - m->ram_base);
	if (vm->flash && pa >= m->flash_base && pa - m->flash_base <= m->flash_size &&
	    len <= m->flash_size - (pa - m->flash_base))
		return vm->flash + (pa - m->flash_base);
	return NULL;
}

int elf_load(struct vemu *vm, const char *path, uint32_t *entry, bool load)
{
	size_t len = 0;
	uint8_t *img = read_file(path, &len);
	const Elf32_Ehdr *eh = (const void *)img;
	int loaded = 0;

	if (!img) {
		fprintf(stderr, "vivt-emu: cannot read %s\n", path);
		return -1;
	}
	if (len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh->e_ident[EI_CLASS] != ELFCLASS32 || eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_machine != EM_ARM) {
		fprintf(stderr, "vivt-emu: %s is not a 32-bit little-endian ARM ELF\n", path);
		free(img);
		return -1;
	}
	if (eh->e_phoff > len || (size_t)eh->e_phnum * sizeof(Elf32_Phdr) > len - eh->e_phoff) {
		fprintf(stderr, "vivt-emu: %s: program headers run past the end of the file\n", path);
		free(img);
		return -1;
	}
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		const Elf32_Phdr *ph = (const void *)(img + eh->e_phoff + i * sizeof(Elf32_Phdr));
		uint8_t *dst;

		if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
			continue;
		if (ph->p_filesz > ph->p_memsz || ph->p_offset > len || ph->p_filesz > len - ph->p_offset) {
			fprintf(stderr, "vivt-emu: %s: segment %u is malformed\n", path, i);
			free(img);
			return -1;
		}
		dst = host_range(vm, ph->p_paddr, ph->p_memsz);
		if (!dst) {
			fprintf(stderr, "vivt-emu: %s: segment %u (PA 0x%08x, %u bytes) is outside RAM and flash of %s\n",
				path, i, ph->p_paddr, ph->p_memsz, vm->mach->name);
			free(img);
			return -1;
		}
		if (load) {
			memcpy(dst, img + ph->p_offset, ph->p_filesz);
			memset(dst + ph->p_filesz, 0, ph->p_memsz - ph->p_filesz);
		}
		if (ph->p_flags & PF_X) {
			cpu_add_cp15_sites(vm, img + ph->p_offset, ph->p_vaddr, ph->p_filesz);
			irqsoff_cpu_add_sites(vm, img + ph->p_offset, ph->p_vaddr, ph->p_filesz);
			pipeline_add_code(vm, img + ph->p_offset, ph->p_vaddr, ph->p_filesz);
		}
		loaded++;
	}
	*entry = eh->e_entry;
	free(img);
	if (!loaded) {
		fprintf(stderr, "vivt-emu: %s has nothing to load\n", path);
		return -1;
	}
	return 0;
}
