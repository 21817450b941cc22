/*
 * Symbols of the loaded ELF: the function around a PC, the address of a
 * named object (the kernel's `current`), and a PC's source line through
 * arm-none-eabi-addr2line (asked only when a report is printed).
 */
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "vemu.h"

extern char **environ;

/*
 * One addr2line for the whole run, started at the first question: a run
 * asks a dozen, and a process each (with the debug info read each time)
 * cost more than the questions' emulation.
 */
struct addr2line {
	bool tried;
	pid_t pid;
	FILE *to, *from;
};

struct sym {
	uint32_t addr, size;
	char *name;
	bool func;
};

struct symbols {
	char *path;
	struct sym *v;
	size_t n;
	struct addr2line *a2l;
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
	s->a2l = calloc(1, sizeof(*s->a2l));
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
	if (s->a2l && s->a2l->to) {
		fclose(s->a2l->to);	/* addr2line ends at the end of its input */
		fclose(s->a2l->from);
		waitpid(s->a2l->pid, NULL, 0);
	}
	free(s->a2l);
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

/* The function symbol holding addr, or NULL. */
static const struct sym *func_at(const struct symbols *s, uint32_t addr)
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
	return best;
}

const char *symbols_lookup(const struct symbols *s, uint32_t addr, uint32_t *off)
{
	const struct sym *f = func_at(s, addr);

	if (!f)
		return NULL;
	*off = addr - f->addr;
	return f->name;
}

long symbols_func_index(const struct symbols *s, uint32_t addr)
{
	const struct sym *f = func_at(s, addr);

	return f ? (long)(f - s->v) : -1;
}

const char *symbols_name(const struct symbols *s, size_t i)
{
	return s && i < s->n ? s->v[i].name : NULL;
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

bool symbols_find_func(const struct symbols *s, const char *name, uint32_t *addr, uint32_t *size)
{
	for (size_t i = 0; s && i < s->n; i++) {
		if (!s->v[i].func || strcmp(s->v[i].name, name))
			continue;
		*addr = s->v[i].addr;
		*size = s->v[i].size;
		/* Assembly labels carry no size: up to the next function. */
		for (size_t j = i + 1; !*size && j < s->n; j++)
			if (s->v[j].func && s->v[j].addr > *addr)
				*size = s->v[j].addr - *addr;
		return true;
	}
	return false;
}

void symbols_after_fork(struct symbols *s)
{
	if (!s || !s->a2l)
		return;
	/* The parent's addr2line answers the parent: this process starts its own. */
	if (s->a2l->to) {
		fclose(s->a2l->to);
		fclose(s->a2l->from);
	}
	*s->a2l = (struct addr2line){ 0 };
}

/* Start addr2line -a -i on the ELF; false if it cannot be (then no lines are given). */
static bool a2l_start(const struct symbols *s, struct addr2line *a)
{
	int in[2], out[2];
	posix_spawn_file_actions_t fa;
	char *argv[] = { "arm-none-eabi-addr2line", "-a", "-i", "-e", s->path, NULL };
	bool ok;

	a->tried = true;
	if (pipe(in))
		return false;
	if (pipe(out)) {
		close(in[0]);
		close(in[1]);
		return false;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, in[0], 0);
	posix_spawn_file_actions_adddup2(&fa, out[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addclose(&fa, in[1]);
	posix_spawn_file_actions_addclose(&fa, out[0]);
	ok = posix_spawnp(&a->pid, argv[0], &fa, NULL, argv, environ) == 0;
	posix_spawn_file_actions_destroy(&fa);
	close(in[0]);
	close(out[1]);
	if (ok) {
		a->to = fdopen(in[1], "w");
		a->from = fdopen(out[0], "r");
		ok = a->to && a->from;
	}
	if (!ok) {
		close(in[1]);
		close(out[0]);
		a->to = a->from = NULL;
	}
	return ok;
}

/*
 * Ask for ADDR, then for an address no ELF of ours has code at: with -a
 * each answer starts with its address, so the second header ends the
 * first answer's lines (one, or more for an inlined chain, innermost first).
 */
#define A2L_END 0xfffffffcu
static void source_line(const struct symbols *s, uint32_t addr, bool outer, char *buf, size_t len)
{
	struct addr2line *a = s ? s->a2l : NULL;
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	char line[1024];
	bool header = false, marker = false, first = true;

	buf[0] = 0;
	if (!a || (!a->tried && !a2l_start(s, a)) || !a->to)
		return;
	sigaction(SIGPIPE, &ign, &old);		/* a dead addr2line: no line, not the run's end */
	fprintf(a->to, "0x%08x\n0x%08x\n", addr, A2L_END);
	fflush(a->to);
	sigaction(SIGPIPE, &old, NULL);
	while (fgets(line, sizeof(line), a->from)) {
		if (!strncmp(line, "0x", 2)) {
			if (header) {
				marker = true;  /* the end marker's header: its one line follows */
				break;
			}
			header = true;
			continue;
		}
		if (first || outer)
			snprintf(buf, len, "%s", line);
		first = false;
	}
	if (marker && !fgets(line, sizeof(line), a->from))
		line[0] = 0;    /* the marker's answer is only read past */
	buf[strcspn(buf, "\n")] = 0;
	if (!strncmp(buf, "??", 2))
		buf[0] = 0;
}

void symbols_source_line(const struct symbols *s, uint32_t addr, char *buf, size_t len)
{
	source_line(s, addr, false, buf, len);
}

void symbols_source_line_outer(const struct symbols *s, uint32_t addr, char *buf, size_t len)
{
	source_line(s, addr, true, buf, len);
}
