/*
 * The pipeline's extra cycles (pipeline.h) charged as the guest runs: each
 * executable segment's words get their static cost when the image is
 * loaded, kept as running sums, so a block costs one lookup; a taken
 * branch adds its refill when the next block is not the fall-through.
 */
#include <stdlib.h>
#include <string.h>
#include "vemu.h"
#include "cpu/pipeline.h"

enum { PIPE_RANGES = 8 };

struct pipe_range {
	uint32_t va, words;
	uint32_t *sum;		/* sum[k]: extra cycles of words 0 .. k-1 */
	uint8_t *branch;	/* bit k: word k is a branch */
};

struct pipe_map {
	struct pipe_range r[PIPE_RANGES];
	unsigned n;
	const struct pipe_range *last;	/* the range of the block seen last, or NULL */
};

void pipeline_add_code(struct vemu *vm, const uint8_t *code, uint32_t va, uint32_t len)
{
	struct pipe_map *m = vm->pipe;
	struct pipe_range *r;
	uint32_t words = len / 4;

	if (!m && !(m = vm->pipe = calloc(1, sizeof(*m))))
		abort();
	if (m->n == PIPE_RANGES || !words) {
		if (words)
			fprintf(stderr, "vivt-emu: more than %d code segments: pipeline cycles not counted past them\n",
				PIPE_RANGES);
		return;
	}
	r = &m->r[m->n++];
	r->va = va;
	r->words = words;
	r->sum = malloc((words + 1) * sizeof(*r->sum));
	r->branch = calloc(words / 8 + 1, 1);
	if (!r->sum || !r->branch)
		abort();
	r->sum[0] = 0;
	for (uint32_t k = 0; k < words; k++) {
		uint32_t w[3] = { 0xe1a00000u, 0xe1a00000u, 0xe1a00000u };	/* past the end: a nop */

		for (uint32_t j = 0; j < 3 && k + j < words; j++)
			memcpy(&w[j], code + 4 * (k + j), 4);
		r->sum[k + 1] = r->sum[k] + pipe_extra(w[0], w[1], w[2]);
		if (pipe_is_branch(w[0]))
			r->branch[k / 8] |= (uint8_t)(1u << (k % 8));
	}
}

static const struct pipe_range *range_of(const struct pipe_map *m, uint32_t pc)
{
	for (unsigned i = 0; i < m->n; i++)
		if (pc - m->r[i].va < 4 * m->r[i].words)
			return &m->r[i];
	return NULL;
}

uint32_t pipeline_block(struct vemu *vm, uint32_t pc, uint32_t size)
{
	struct pipe_map *m = vm->pipe;
	const struct pipe_range *r, *prev;
	uint32_t extra = 0;

	if (!m)
		return 0;
	/* The block before this one (in m->last) ended in a branch that was taken. */
	prev = m->last;
	if (prev && pc != vm->block_pc + vm->block_size) {
		uint32_t k = (vm->block_pc + vm->block_size - 4 - prev->va) / 4;

		if (k < prev->words && (prev->branch[k / 8] >> (k % 8) & 1))
			extra += PIPE_TAKEN_BRANCH;
	}
	r = m->last = range_of(m, pc);
	if (r) {
		uint32_t first = (pc - r->va) / 4, last = first + size / 4;

		if (last > r->words)
			last = r->words;
		extra += r->sum[last] - r->sum[first];
	}
	return extra;
}
