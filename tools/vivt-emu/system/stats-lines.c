/*
 * --stats-at-lines REGEX: the memory-system model's counters between
 * console lines.  Each complete console line that matches REGEX (POSIX
 * extended) gets one line on the emulator's own output with the counter
 * deltas since the previous matching line (or since reset), so a
 * benchmark's own result lines mark out what each figure cost, with no
 * change to its firmware.  The line format is fixed for tools to read:
 *   vivt-emu: stats-at-line insns=N pipe=N loads=N ... drains=N | <console line>
 * (pipe: the pipeline's cycles beyond one per instruction, pipeline.h)
 */
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include "vemu.h"
#include "memsys/memsys.h"

#define LINE_MAX_CHARS	256	/* longer lines are cut for matching */

struct stats_lines {
	regex_t re;
	char line[LINE_MAX_CHARS + 1];
	unsigned len;
	uint64_t last_insns, last_pipe;
	struct ms_stats last;
};

int stats_lines_init(struct vemu *vm, const char *regex)
{
	struct stats_lines *sl;
	int rc;

	if (!vm->ms) {
		fprintf(stderr, "vivt-emu: --stats-at-lines needs the memory-system model (drop --no-model)\n");
		return -1;
	}
	sl = calloc(1, sizeof(*sl));
	if (!sl)
		return -1;
	rc = regcomp(&sl->re, regex, REG_EXTENDED | REG_NOSUB);
	if (rc) {
		char msg[128];

		regerror(rc, &sl->re, msg, sizeof(msg));
		fprintf(stderr, "vivt-emu: --stats-at-lines '%s': %s\n", regex, msg);
		free(sl);
		return -1;
	}
	vm->stats_lines = sl;
	return 0;
}

static uint64_t delta(uint64_t now, uint64_t *last)
{
	uint64_t d = now - *last;

	*last = now;
	return d;
}

static void line_done(struct vemu *vm, struct stats_lines *sl)
{
	struct ms_stats st;

	sl->line[sl->len] = '\0';
	sl->len = 0;
	if (regexec(&sl->re, sl->line, 0, NULL, 0))
		return;
	ms_get_stats(vm->ms, &st);
	/* One fprintf per field pair keeps the field order readable here. */
	fprintf(vm->out, "vivt-emu: stats-at-line insns=%llu", (unsigned long long)delta(vm->insns, &sl->last_insns));
	fprintf(vm->out, " pipe=%llu", (unsigned long long)delta(vm->pipe_cycles, &sl->last_pipe));
	fprintf(vm->out, " loads=%llu stores=%llu", (unsigned long long)delta(st.loads, &sl->last.loads),
		(unsigned long long)delta(st.stores, &sl->last.stores));
	fprintf(vm->out, " dfills=%llu dwritebacks=%llu", (unsigned long long)delta(st.dline_fills, &sl->last.dline_fills),
		(unsigned long long)delta(st.dwritebacks, &sl->last.dwritebacks));
	fprintf(vm->out, " devictions=%llu ifills=%llu", (unsigned long long)delta(st.devictions, &sl->last.devictions),
		(unsigned long long)delta(st.iline_fills, &sl->last.iline_fills));
	fprintf(vm->out, " cp15=%llu walks=%llu", (unsigned long long)delta(st.cp15_ops, &sl->last.cp15_ops),
		(unsigned long long)delta(st.walks, &sl->last.walks));
	fprintf(vm->out, " tlbmisses=%llu drains=%llu | %s\n", (unsigned long long)delta(st.tlb_misses, &sl->last.tlb_misses),
		(unsigned long long)delta(st.wb_drains, &sl->last.wb_drains), sl->line);
}

void stats_lines_putc(struct vemu *vm, int c)
{
	struct stats_lines *sl = vm->stats_lines;

	if (!sl)
		return;
	if (c == '\n')
		line_done(vm, sl);
	else if (c != '\r' && sl->len < LINE_MAX_CHARS)
		sl->line[sl->len++] = (char)c;
}

void stats_lines_free(struct vemu *vm)
{
	if (!vm->stats_lines)
		return;
	regfree(&vm->stats_lines->re);
	free(vm->stats_lines);
	vm->stats_lines = NULL;
}
