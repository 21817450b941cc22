/*
 * An interrupt handler's map at every point of a switch-in's kmap walk.
 *
 * Thread N maps pages and blocks; thread W then maps pages into the same
 * slots, P among them, dirties P (its first and last lines) and blocks:
 * with the deferred scheme its slots keep PTE and dirty lines. N is woken,
 * and its switch-in walk (interrupts on) empties one of W's slots first
 * and reaches the one holding P later:
 *   - lower: N holds Q, R; W holds D, P: slot 0 (D) first, then slot 1 (P);
 *   - above: N holds Q; W holds P, Q: slot 1 (N's Q, an alias above N's
 *     stack) first, then slot 0 (P).
 * An interrupt lands once per run at the k-th interrupt point of N after
 * its wake-up, for every k: the handler maps P (a second alias of W's
 * slot, whenever the walk has not reached that slot yet), reads what W
 * wrote, writes its own, unmaps. The handler must see W's data, its write
 * must reach W and RAM, and the model must see no stale read or
 * write-back over newer data: at no point of the walk may the handler's
 * map skip the flush of another thread's slot that holds its page.
 *
 * The third case wakes a more urgent thread U instead: the deferred walk
 * stops at its next preemption point (kmap_switch_point()) and U runs
 * before N's maps are all back. U maps W's page P and N's page Q; each
 * must read what its writer left, and N, resumed, must find its own maps
 * whole: the walk is done again at N's next switch-in.
 */
#include <stdio.h>
#include "host_test.h"
#include <asm/irqflags.h>
#include <lokal/platform.h>

enum scenario { LOWER, ABOVE };

static enum scenario scenario;
static struct page *pd, *pp, *pq, *pr;
static struct semaphore n_go, w_end;
static struct thread *n_thread;
static volatile bool armed;
static unsigned int target, points, landed;
static enum sim_irq_point landed_where;
static struct semaphore u_go;
static bool wake_u;             /* the third case: the handler wakes U instead of mapping */

#define LAST_LINE (PAGE_SIZE - 32)

/* P's first and last lines hold s. */
static bool holds(const char *p, const char *s)
{
	return strcmp(p, s) == 0 && strcmp(p + LAST_LINE, s) == 0;
}

/* W: two maps, P with dirty lines among them; checks P after the handler wrote. */
static void w_fn(void *arg)
{
	char *v1, *v2, *vp;

	(void)arg;
	v1 = kmap_local_page(scenario == LOWER ? pd : pp);
	v2 = kmap_local_page(scenario == LOWER ? pp : pq);
	vp = scenario == LOWER ? v2 : v1;
	host_dirty(vp, "W's");
	host_dirty(vp + LAST_LINE, "W's");
	down(&w_end);
	HOST_EXPECT(holds(vp, landed ? "the IRQ's" : "W's"));
	kunmap_local(v2);
	kunmap_local(v1);
}

/* N: its maps in the same slots, then blocks; the walk runs when it is woken. */
static void n_fn(void *arg)
{
	char *vq, *vr = NULL;

	(void)arg;
	vq = kmap_local_page(pq);
	host_dirty(vq, "N's");
	if (scenario == LOWER)
		vr = kmap_local_page(pr);
	down(&n_go);
	armed = false;
	HOST_EXPECT(strcmp(vq, "N's") == 0);    /* whatever ran in the walk */
	if (vr)
		kunmap_local(vr);
	kunmap_local(vq);
}

/* The k-th interrupt point in N since it was woken: map W's page P, read, write, unmap. */
static void irq_in_walk(enum sim_irq_point where, unsigned long vaddr)
{
	unsigned long flags;
	char *v;

	(void)vaddr;
	if (!armed || current != n_thread || points++ != target)
		return;
	landed++;
	landed_where = where;
	flags = arch_local_irq_save();
	irq_enter();
	if (wake_u) {
		up(&u_go);
		irq_exit();
		arch_local_irq_restore(flags);
		return;
	}
	v = kmap_local_page(pp);
	HOST_EXPECT(holds(v, "W's"));           /* W's dirty lines were written back first */
	strcpy(v, "the IRQ's");                 /* dirty hits: the reads allocated the lines */
	strcpy(v + LAST_LINE, "the IRQ's");
	kunmap_local(v);
	irq_exit();
	arch_local_irq_restore(flags);
}

/* U, more urgent than N: woken in N's walk, it reads P (W's) and Q (N's), and writes P. */
static void u_fn(void *arg)
{
	char *v;

	(void)arg;
	down(&u_go);
	if (!landed)
		return;
	v = kmap_local_page(pp);
	HOST_EXPECT(holds(v, "W's"));
	strcpy(v, "the IRQ's");
	strcpy(v + LAST_LINE, "the IRQ's");
	kunmap_local(v);
	v = kmap_local_page(pq);
	HOST_EXPECT(strcmp(v, "N's") == 0);
	kunmap_local(v);
}

static void irq_map_at_every_switch_in_point(enum scenario which)
{
	struct thread *w, *u = NULL;

	scenario = which;
	pd = host_alloc(ZONE_HIGHMEM);
	pp = host_alloc(ZONE_HIGHMEM);
	pq = host_alloc(ZONE_HIGHMEM);
	pr = host_alloc(ZONE_HIGHMEM);
	for (target = 0;; target++) {
		const char *other;

		points = 0;
		landed = 0;
		sema_init(&n_go, 0);
		sema_init(&w_end, 0);
		sema_init(&u_go, 0);
		if (wake_u)
			u = host_spawn("U", u_fn, NULL, HOST_PRIO_MAIN + 3);   /* waits for the IRQ */
		n_thread = host_spawn("N", n_fn, NULL, HOST_PRIO_MAIN + 2);    /* maps, blocks */
		w = host_spawn("W", w_fn, NULL, HOST_PRIO_MAIN + 1);           /* maps, blocks */
		armed = true;
		sim_irq_at = irq_in_walk;
		up(&n_go);              /* N preempts main: its switch-in walk runs */
		sim_irq_at = NULL;
		armed = false;
		thread_join(n_thread);
		if (u) {
			up(&u_go);      /* U was never woken when nothing landed */
			thread_join(u);
		}
		up(&w_end);
		thread_join(w);
		if (!landed)
			break;
		other = host_expectations();
		if (other)
			fail_msg("interrupt at point %u of the switch-in (kind %d): %s", target,
				 landed_where, other);
		if (sim_violations(SIM_NR_VIOLATIONS))
			fail_msg("interrupt at point %u of the switch-in (kind %d): %u model "
				 "violation(s), last: %s", target, landed_where,
				 sim_violations(SIM_NR_VIOLATIONS), sim_last_violation());
		if (!holds((const char *)sim_phys(host_pa(pp)), "the IRQ's"))
			fail_msg("interrupt at point %u of the switch-in (kind %d): the handler's "
				 "write to W's page was lost (RAM holds \"%.15s\" and \"%.15s\")",
				 target, landed_where, (const char *)sim_phys(host_pa(pp)),
				 (const char *)sim_phys(host_pa(pp)) + LAST_LINE);
	}
	printf("# %u interrupt points in the switch-in walk, one run each\n", target);
	if (target < 4)
		fail_msg("only %u interrupt points in the switch-in: the walk did not run", target);
}

/* Every point of the walk, a wake-up of U: the walk stops for it (deferred scheme) and is done again. */
static void urgent_thread_cuts_switch_in(void **state)
{
	(void)state;
	wake_u = true;
#if CONFIG_KMAP_DEFER
	struct kmap_defer_stats before, after;

	kmap_defer_get_stats(&before);
#endif
	irq_map_at_every_switch_in_point(LOWER);
#if CONFIG_KMAP_DEFER
	kmap_defer_get_stats(&after);
	printf("# %lu of the walks stopped for U\n", after.walks_cut - before.walks_cut);
	if (after.walks_cut == before.walks_cut)
		fail_msg("no switch-in walk stopped for the more urgent thread U");
#endif
	wake_u = false;
}

/* irq_map_at_every_switch_in_point() as a test case: its argument is the case's state (HOST_TEST_CASE). */
static void irq_map_at_every_switch_in_point_test(void **state)
{
	irq_map_at_every_switch_in_point((enum scenario)(uintptr_t)*state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST_CASE(irq_map_in_switch_in_lower_slots, irq_map_at_every_switch_in_point_test, LOWER),
		HOST_TEST_CASE(irq_map_in_switch_in_above_stack, irq_map_at_every_switch_in_point_test, ABOVE),
		HOST_TEST(urgent_thread_cuts_switch_in),
	};

	return host_run_groups("switch_in_irq", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
