/*
 * Stress: threads at mixed priorities take random nested local maps (some
 * kmap_atomic), write, yield and sleep while holding them, and the tick
 * preempts them. Every page's content is checked while mapped, after every
 * switch, and at the end through another mapping.
 */
#include <stdio.h>
#include <lokal/highmem.h>
#include <lokal/thread.h>
#include <lokal/app.h>
#include <lokal/irq.h>
#include <lokal/platform.h>
#include "ktest.h"

#define THREADS         8
#define PAGES           16      /* per thread */
#define STRIDE          8       /* words: one per 32-byte cache line */

struct stress {
	struct page *pages[PAGES];
	uint32_t gen[PAGES];
	uint32_t rng;
	unsigned long pairs, mismatches;
};

static struct stress st[THREADS];

/*
 * A timer interrupt at irregular short intervals maps pages of its own
 * while threads hold, tear down and restore theirs: it lands inside
 * switches' kmap steps (which run with interrupts on) as well.
 */
#define IRQ_PAGES 4
static struct stress irq_st;
static volatile unsigned long irq_maps, irq_bad;
static volatile bool irq_stop;
static volatile unsigned long total_pairs;
static const unsigned long wanted = CONFIG_STRESS_PAIRS;

static uint32_t rnd(struct stress *s)
{
	s->rng ^= s->rng << 13;
	s->rng ^= s->rng >> 17;
	s->rng ^= s->rng << 5;
	return s->rng;
}

static uint32_t word(struct page *pg, uint32_t gen, unsigned int w)
{
	return ((uint32_t)page_to_pfn(pg) << 12) ^ (gen * 0x9e3779b9u) ^ w;
}

static unsigned long verify(struct stress *s, int i, const uint32_t *p)
{
	unsigned long bad = 0;

	for (unsigned int w = 0; w < PAGE_SIZE / 4; w += STRIDE)
		bad += p[w] != word(s->pages[i], s->gen[i], w);
	return bad;
}

static void rewrite(struct stress *s, int i, uint32_t *p)
{
	s->gen[i]++;
	for (unsigned int w = 0; w < PAGE_SIZE / 4; w += STRIDE)
		p[w] = word(s->pages[i], s->gen[i], w);
}

static void irq_mapper(unsigned int irq, void *arg)
{
	int i = (int)(rnd(&irq_st) % IRQ_PAGES);
	uint32_t *p;

	(void)irq; (void)arg;
	oneshot_timer_ack();
	p = kmap_local_page(irq_st.pages[i]);
	irq_bad += verify(&irq_st, i, p);
	rewrite(&irq_st, i, p);
	kunmap_local(p);
	irq_maps++;
	if (!irq_stop)
		oneshot_timer_arm(20 + rnd(&irq_st) % 60);
}

static void stress_thread(void *arg)
{
	struct stress *s = arg;

	while (total_pairs < wanted) {
		int depth = 1 + (int)(rnd(s) % 4), idx[4];
		uint32_t *addr[4];
		bool atomic = (rnd(s) % 8) == 0;        /* innermost through kmap_atomic */

		for (int d = 0; d < depth; d++) {
			idx[d] = (int)((rnd(s) % (PAGES / 4)) * 4 + (unsigned int)d);  /* distinct */
			addr[d] = (atomic && d == depth - 1) ? kmap_atomic(s->pages[idx[d]])
							     : kmap_local_page(s->pages[idx[d]]);
			s->mismatches += verify(s, idx[d], addr[d]);
			rewrite(s, idx[d], addr[d]);
		}
		if (!atomic) {
			uint32_t r = rnd(s) % 16;

			if (r == 0)
				sleep_ticks(1);
			else if (r < 4)
				thread_yield();
		}
		/* After a possible switch: still our pages, still our data. */
		for (int d = depth - 1; d >= 0; d--) {
			s->mismatches += verify(s, idx[d], addr[d]);
			if (atomic && d == depth - 1)
				kunmap_atomic(addr[d]);
			else
				kunmap_local(addr[d]);
			s->pairs++;
			total_pairs++;
		}
	}
}

static void stress_random_nested_maps_under_preemption(void)
{
	struct thread *t[THREADS];
	unsigned long mismatches = 0, pairs = 0;
	struct sched_stats ss;
	char name[16];

	for (int i = 0; i < THREADS; i++) {
		st[i].rng = 0x1234567u * (uint32_t)(i + 1);
		for (int p = 0; p < PAGES; p++) {
			st[i].pages[p] = alloc_page(ZONE_HIGHMEM);
			KT_ASSERT(st[i].pages[p]);
			uint32_t *a = kmap_local_page(st[i].pages[p]);
			rewrite(&st[i], p, a);
			kunmap_local(a);
		}
	}
	irq_st.rng = 0xabcdef;
	for (int p = 0; p < IRQ_PAGES; p++) {
		irq_st.pages[p] = alloc_page(ZONE_HIGHMEM);
		KT_ASSERT(irq_st.pages[p]);
		uint32_t *a = kmap_local_page(irq_st.pages[p]);
		rewrite(&irq_st, p, a);
		kunmap_local(a);
	}
	KT_ASSERT(request_irq(oneshot_timer_irq(), irq_mapper, NULL) == 0);
	oneshot_timer_arm(50);
	for (int i = 0; i < THREADS; i++) {
		snprintf(name, sizeof(name), "stress%d", i);
		/* four priority levels below main, two threads on each */
		t[i] = thread_create(name, stress_thread, &st[i], PRIO_MAIN - 4 + i / 2, 2048);
	}
	for (int i = 0; i < THREADS; i++)
		thread_join(t[i]);
	irq_stop = true;
	sleep_ms(1);
	free_irq(oneshot_timer_irq());
	for (int p = 0; p < IRQ_PAGES; p++) {
		uint32_t *a = kmap(irq_st.pages[p]);
		mismatches += verify(&irq_st, p, a);
		kunmap(irq_st.pages[p]);
	}
	mismatches += irq_bad;
	for (int i = 0; i < THREADS; i++) {
		mismatches += st[i].mismatches;
		pairs += st[i].pairs;
		for (int p = 0; p < PAGES; p++) {   /* through the pkmap pool now */
			uint32_t *a = kmap(st[i].pages[p]);
			mismatches += verify(&st[i], p, a);
			kunmap(st[i].pages[p]);
		}
	}
	sched_get_stats(&ss);
	printf("# %lu map/unmap pairs, %lu switches (%lu preemptions, %lu with kmaps, "
	       "%lu maps restored), %lu maps from IRQs (%lu IRQs inside a switch's kmap steps), "
	       "%lu mismatches\n", pairs, ss.switches, ss.preemptions, ss.kmap_switches,
	       ss.kmaps_restored, irq_maps, ss.irqs_in_kmap_switch, mismatches);
	KT_ASSERT(pairs >= wanted);
	KT_ASSERT(ss.preemptions > 0);
	KT_ASSERT(ss.kmaps_restored > 0);
	KT_ASSERT(irq_maps > 1000);
	KT_ASSERT(ss.irqs_in_kmap_switch > 0);   /* the interesting windows were hit */
	KT_ASSERT_EQ(mismatches, 0);
}

KTEST_MAIN(KTEST(stress_random_nested_maps_under_preemption))
