/*
 * Symbols of the loaded ELF: the function around a PC, the address of a
 * named object (the kernel's `current`), and a PC's source line through
 * arm-none-eabi-addr2line (asked only when a report is printed).
 */
#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include "vemu.h"

struct sym {
	uint32_t addr, size;
	char *name;
	bool func;
};

struct symbols {
	char *path;
	struct sym *v;
	size_t n;
};

static int by_addr(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void load_table(struct symbols *s, const uint8_t *img, size_t len)
{
	const Elf32_Ehdr *eh = (const void *)img;
	const Elf32_Shdr *sh;

	if (eh->e_shoff > len || (size_t)eh->e_shnum * sizeof(Elf32_Shdr) > len - eh->e_shoff)
		return;
	sh = (const void *)(img + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const Elf32_Shdr *st = &sh[i], *str;

		if (st->sh_type != SHT_SYMTAB || st->sh_link >= eh->e_shnum)
			continue;
		str = &sh[st->sh_link];
		if (st->sh_offset > len || st->sh_size > len - st->sh_offset ||
		    str->sh_offset > len || str->sh_size > len - str->sh_offset)
			return;
		s->v = calloc(st->sh_size / sizeof(Elf32_Sym) + 1, sizeof(*s->v));
		if (!s->v)
			return;
		for (size_t k = 0; k < st->sh_size / sizeof(Elf32_Sym); k++) {
			const Elf32_Sym *e = (const void *)(img + st->sh_offset + k * sizeof(Elf32_Sym));
			unsigned type = ELF32_ST_TYPE(e->st_info);

			const char *nm = (const char *)img + str->sh_offset + e->st_name;
			bool code = e->st_shndx < eh->e_shnum && (sh[e->st_shndx].sh_flags & SHF_EXECINSTR);

			/* Assembly functions often have no .type: take untyped code labels too. */
			if (e->st_name >= str->sh_size || nm[0] == '$' || nm[0] == 0 ||
			    !(type == STT_FUNC || type == STT_OBJECT || (type == STT_NOTYPE && code)))
				continue;
			s->v[s->n].addr = e->st_value & ~1u;
			s->v[s->n].size = e->st_size;
			s->v[s->n].func = type == STT_FUNC || code;
			s->v[s->n].name = strndup(nm, str->sh_size - e->st_name);
			s->n++;
		}
		qsort(s->v, s->n, sizeof(*s->v), by_addr);
		return;
	}
}

struct symbols *symbols_load(const char *path)
{
	struct symbols *s = calloc(1, sizeof(*s));
	FILE *f = fopen(path, "rb");
	uint8_t *img = NULL;
	long n = 0;

	if (!s)
		return NULL;
	s->path = strdup(path);
	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > (long)sizeof(Elf32_Ehdr) &&
	    fseek(f, 0, SEEK_SET) == 0 && (img = malloc((size_t)n)) &&
	    fread(img, 1, (size_t)n, f) == (size_t)n)
		load_table(s, img, (size_t)n);
	free(img);
	if (f)
		fclose(f);
	return s;
}

void symbols_free(struct symbols *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].name);
	free(s->v);
	free(s->path);
	free(s);
}

size_t symbols_count(const struct symbols *s)
{
	return s ? s->n : 0;
}

const char *symbols_lookup(const struct symbols *s, uint32_t addr, uint32_t *off)
{
	const struct sym *best = NULL;
	size_t lo = 0, hi;

	if (!s || !s->n)
		return NULL;
	hi = s->n;
	while (lo < hi) {		/* first symbol above addr */
		size_t mid = (lo + hi) / 2;

		if (s->v[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i-- > 0;) {
		if (s->v[i].func) {
			best = &s->v[i];
			break;
		}
	}
	if (!best || (best->size && addr - best->addr >= best->size + 0x1000))
		return NULL;
	*off = addr - best->addr;
	return best->name;
}

bool symbols_find(const struct symbols *s, const char *name, uint32_t *addr)
{
	for (size_t i = 0; s && i < s->n; i++)
		if (!strcmp(s->v[i].name, name)) {
			*addr = s->v[i].addr;
			return true;
		}
	return false;
}

static void source_line(const struct symbols *s, uint32_t addr, bool outer, char *buf, size_t len)
{
	char cmd[1200];
	FILE *p;

	buf[0] = 0;
	if (!s || strchr(s->path, '\'') || strlen(s->path) > 1000)
		return;
	snprintf(cmd, sizeof(cmd), "arm-none-eabi-addr2line %s-e '%s' 0x%08x 2>/dev/null",
		 outer ? "-i " : "", s->path, addr);
	p = popen(cmd, "r");
	if (!p)
		return;
	/* With -i the inlined chain follows, innermost first: keep the last line. */
	while (fgets(buf, (int)len, p) && outer)
		;
	buf[strcspn(buf, "\n")] = 0;
	if (!strncmp(buf, "??", 2))
		buf[0] = 0;
	pclose(p);
}

void symbols_source_line(const struct symbols *s, uint32_t addr, char *buf, size_t len)
{
	source_line(s, addr, false, buf, len);
}

void symbols_source_line_outer(const struct symbols *s, uint32_t addr, char *buf, size_t len)
{
	source_line(s, addr, true, buf, len);
}
