/*
 * A wake-up at every point of a switch's kmap work: the switch goes to the
 * more urgent thread after at most one more page (kmap_switch_point()),
 * and nothing is lost.
 *
 * P holds three maps, each page written through them, and blocks: the
 * switch goes to main, below it. Once per run, at the k-th interrupt point
 * while P is still current (its switch-out: the eager scheme tears its
 * slots down one page at a time), a handler wakes U, more urgent than
 * main. The eager switch-out then stops and leaves P's other slots stale;
 * U maps P's middle page (a second address: the stale slot must go first)
 * in slot 0 (P's first page's: a stale slot in the way) and reads what P
 * wrote, writes its own, and maps two pages of its own above, the second in
 * slot 2 (P's last page's, stale if cut after P's first). P, woken last, must find its pages as they should be, and the
 * model must see no stale read and no lost write.
 */
#include <stdio.h>
#include "host_test.h"
#include <asm/irqflags.h>
#include <lokal/platform.h>

static struct page *pg[3], *pu[2];
static struct semaphore p_go, u_go;
static struct thread *p_thread;
static volatile bool armed;
static unsigned int target, points, landed;

static const char *const p_text[3] = { "P's first", "P's middle", "P's last" };

static void p_fn(void *arg)
{
	char *v[3];

	(void)arg;
	p_thread = current;     /* it runs inside host_spawn(), before that returns */
	for (int i = 0; i < 3; i++) {
		v[i] = kmap_local_page(pg[i]);
		host_dirty(v[i], p_text[i]);
	}
	armed = true;
	down(&p_go);
	armed = false;
	HOST_EXPECT(strcmp(v[0], p_text[0]) == 0);
	HOST_EXPECT(strcmp(v[1], landed ? "U's" : p_text[1]) == 0);
	HOST_EXPECT(strcmp(v[2], p_text[2]) == 0);
	for (int i = 2; i >= 0; i--)
		kunmap_local(v[i]);
}

static void u_fn(void *arg)
{
	char *mine, *mine2, *v;

	(void)arg;
	down(&u_go);
	if (!landed)
		return;
	v = kmap_local_page(pg[1]);            /* slot 0: P's first page's, stale if cut */
	HOST_EXPECT(strcmp(v, p_text[1]) == 0);
	strcpy(v, "U's");
	mine = kmap_local_page(pu[0]);
	strcpy(mine, "U's own");
	mine2 = kmap_local_page(pu[1]);        /* slot 2: P's last page's, stale if cut */
	strcpy(mine2, "U's other");
	HOST_EXPECT(strcmp(mine, "U's own") == 0);
	kunmap_local(mine2);
	kunmap_local(mine);
	kunmap_local(v);
}

static void irq_wakes_u(enum sim_irq_point where, unsigned long vaddr)
{
	unsigned long flags;

	(void)where; (void)vaddr;
	if (!armed || current != p_thread || points++ != target)
		return;
	landed++;
	flags = arch_local_irq_save();
	irq_enter();
	up(&u_go);
	irq_exit();
	arch_local_irq_restore(flags);
}

static void wake_up_at_every_point_of_switch_out(void **state)
{
	struct sched_stats before, after;
	struct thread *u;

	(void)state;
	for (int i = 0; i < 3; i++)
		pg[i] = host_alloc(ZONE_HIGHMEM);
	pu[0] = host_alloc(ZONE_HIGHMEM);
	pu[1] = host_alloc(ZONE_HIGHMEM);
	sched_get_stats(&before);
	for (target = 0;; target++) {
		const char *other;

		points = 0;
		landed = 0;
		sema_init(&p_go, 0);
		sema_init(&u_go, 0);
		u = host_spawn("U", u_fn, NULL, HOST_PRIO_MAIN + 3);           /* waits for the IRQ */
		sim_irq_at = irq_wakes_u;
		host_spawn("P", p_fn, NULL, HOST_PRIO_MAIN + 1);               /* maps, blocks */
		sim_irq_at = NULL;
		up(&p_go);
		thread_join(p_thread);
		up(&u_go);
		thread_join(u);
		if (!landed)
			break;
		other = host_expectations();
		if (other)
			fail_msg("wake-up at point %u of P's switch-out: %s", target, other);
		if (sim_violations(SIM_NR_VIOLATIONS))
			fail_msg("wake-up at point %u of P's switch-out: %u model violation(s), last: %s",
				 target, sim_violations(SIM_NR_VIOLATIONS), sim_last_violation());
		if (strcmp((const char *)sim_phys(host_pa(pg[1])), "U's") != 0)
			fail_msg("wake-up at point %u of P's switch-out: U's write to P's page was lost "
				 "(RAM holds \"%.15s\")", target, (const char *)sim_phys(host_pa(pg[1])));
	}
	sched_get_stats(&after);
	printf("# %u interrupt points in P's switch-out, %lu switches' kmap work cut short\n",
	       target, after.kmap_switches_cut - before.kmap_switches_cut);
	if (target < (CONFIG_KMAP_DEFER ? 1u : 3u))     /* the deferred switch-out has no kmap work */
		fail_msg("only %u interrupt points while P switched out: the test did not run", target);
#if !CONFIG_KMAP_DEFER
	if (after.kmap_switches_cut == before.kmap_switches_cut)
		fail_msg("no switch-out was cut short for U: the eager teardown ran to its end every time");
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(wake_up_at_every_point_of_switch_out),
	};

	return host_run_groups("switch_cut", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
