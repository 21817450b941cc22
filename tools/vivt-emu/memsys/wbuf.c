/*
 * The write buffer (stores to bufferable memory that do not stay in the
 * D-cache: 4 addresses, 16 words) and the write-back buffer (one evicted or
 * cleaned line: 1 address, 8 words).  The CPU's own later loads see what is
 * pending; memory and the table walker see it only once it retires: on a
 * drain (c7,c10,4 or a strongly ordered access), or oldest first when a
 * new entry does not fit.  Retiring checks that a write-back does not put
 * older data over newer (a stale alias written back late).
 */
#include "memsys-int.h"

static struct wb_entry *slot(struct wbuf *wb, unsigned i)
{
	return &wb->e[(wb->head + i) % WB_SLOTS];
}

static void retire_oldest(struct memsys *ms)
{
	struct wbuf *wb = &ms->wb;
	struct wb_entry *e = slot(wb, 0);
	size_t base = word_index(ms, e->pa);
	bool lost_reported = false;

	for (unsigned w = 0; w < e->nwords; w++) {
		uint64_t *m = &ms->mem[base + w];

		if (e->st[w] < *m && !lost_reported && dma_word(ms, base + w)) {
			oracle_report(ms, MS_DMA_CLOBBER, e->va + 4 * w, e->pa + 4 * w, e->pc,
				      e->pa + 4 * w,
				      "write-back of a line from PA 0x%08x puts version %llu over version "
				      "%llu a device wrote (transfer started at PC 0x%08x): the line was "
				      "not invalidated before the transfer", e->pa,
				      (unsigned long long)e->st[w], (unsigned long long)*m,
				      ms->writer[base + w]);
			lost_reported = true;
		} else if (e->st[w] < *m && !lost_reported) {
			oracle_report(ms, MS_LOST_WRITE_WB, e->va + 4 * w, e->pa + 4 * w, e->pc,
			      e->pa + 4 * w,
				      "write-back of a line from PA 0x%08x puts version %llu over newer "
				      "version %llu (written at PC 0x%08x through another mapping)",
				      e->pa, (unsigned long long)e->st[w], (unsigned long long)*m,
				      ms->writer[base + w]);
			lost_reported = true;
		}
		*m = e->st[w];
	}
	if (e->writeback) {
		wb->wb_addrs--;
	} else {
		wb->store_addrs--;
		wb->store_words -= e->nwords;
	}
	wb->head = (wb->head + 1) % WB_SLOTS;
	wb->count--;
}

void wb_drain(struct memsys *ms)
{
	while (ms->wb.count)
		retire_oldest(ms);
}

static struct wb_entry *append(struct memsys *ms)
{
	struct wbuf *wb = &ms->wb;
	struct wb_entry *e = slot(wb, wb->count);

	wb->count++;
	return e;
}

void wb_push_store(struct memsys *ms, uint32_t pa, uint64_t st, uint32_t va, uint32_t pc)
{
	struct wbuf *wb = &ms->wb;
	struct wb_entry *e;

	while (wb->store_addrs >= WB_STORE_ADDRS || wb->store_words + 1 > WB_STORE_WORDS)
		retire_oldest(ms);
	e = append(ms);
	e->pa = pa & ~3u;
	e->va = va;
	e->pc = pc;
	e->nwords = 1;
	e->writeback = false;
	e->st[0] = st;
	wb->store_addrs++;
	wb->store_words++;
}

void wb_push_line(struct memsys *ms, const struct cline *l, uint32_t va, uint32_t pc)
{
	struct wbuf *wb = &ms->wb;
	struct wb_entry *e;
	unsigned first = (l->dirty & 1) ? 0 : LINE_WORDS / 2;
	unsigned last = (l->dirty & 2) ? LINE_WORDS : LINE_WORDS / 2;

	while (wb->wb_addrs >= 1)
		retire_oldest(ms);
	e = append(ms);
	e->pa = l->pa + 4 * first;
	e->va = va + 4 * first;
	e->pc = pc;
	e->nwords = (uint8_t)(last - first);
	e->writeback = true;
	for (unsigned w = first; w < last; w++)
		e->st[w - first] = l->st[w];
	wb->wb_addrs++;
}

bool wb_pending(const struct memsys *ms, uint32_t pa, uint64_t *st)
{
	const struct wbuf *wb = &ms->wb;

	pa &= ~3u;
	for (unsigned i = wb->count; i-- > 0;) {
		const struct wb_entry *e = &wb->e[(wb->head + i) % WB_SLOTS];

		if (pa - e->pa < 4u * e->nwords) {
			*st = e->st[(pa - e->pa) / 4];
			return true;
		}
	}
	return false;
}

bool wb_overlaps(const struct memsys *ms, uint32_t pa, uint32_t len)
{
	const struct wbuf *wb = &ms->wb;

	for (unsigned i = 0; i < wb->count; i++) {
		const struct wb_entry *e = &wb->e[(wb->head + i) % WB_SLOTS];

		if (e->pa < pa + len && pa < e->pa + 4u * e->nwords)
			return true;
	}
	return false;
}
