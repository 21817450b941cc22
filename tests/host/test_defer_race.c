/*
 * Emptying another thread's slot while that thread preempts the flusher.
 *
 * kmap_flush_deferred() and __free_page() empty slots that a switched-out
 * holder still owns, and they do it preemptibly. The holder H is woken by
 * an interrupt at one exact step of that flush and preempts the flusher
 * (main): H writes through its map and blocks again. Whatever step H lands
 * in, the slot must end either empty with no line left under its address,
 * or resident and known to be: never a mix. Each window is a test, once
 * for each caller:
 *   - after the line work, before the PTE clear, H owning the slots (its
 *     switch-in does nothing, so its write brings lines back under the
 *     address the flusher then declares empty);
 *   - after the PTE clear, before the bookkeeping, H owning the slots (H
 *     would take the owner's shortcut and fault on its own live map);
 *   - the same step with H not the owner (H's switch-in re-installs the
 *     slot, whose resident bit the flusher then clears under it).
 * After each flush, main maps another page into the slot and the freed or
 * flushed page somewhere else, and reads both: stale lines under the
 * address, or a second alias nobody flushed, are model reports.
 */
#include <stdio.h>
#include "host_test.h"
#include <asm/irqflags.h>
#include <lokal/platform.h>

enum caller { FLUSH_DEFERRED, FREE_PAGE };

#define H_MAPS_MAX 3

static struct page *h_pages[H_MAPS_MAX];
static char *h_va[H_MAPS_MAX];
static int h_maps;
static struct semaphore h_go, h_end;
static struct thread *main_thread;
static enum sim_irq_point irq_where;
static unsigned long irq_va;
static bool irq_armed;
static unsigned int irq_landed;

/* H maps h_maps pages (the last is the one flushed), dirties it, waits to be woken mid-flush. */
static void holder(void *arg)
{
	char *top;

	(void)arg;
	for (int i = 0; i < h_maps; i++)
		h_va[i] = kmap_local_page(h_pages[i]);
	top = h_va[h_maps - 1];
	host_dirty(top, "H's");
	down(&h_go);
	host_dirty(top, "H again");          /* through its live map, whatever the flusher did */
	down(&h_end);
	HOST_EXPECT(strcmp(top, "H again") == 0);
	for (int i = h_maps - 1; i >= 0; i--)
		kunmap_local(h_va[i]);
}

/* The interrupt: at the chosen step of main's flush of H's slot, wake H. */
static void irq_wakes_holder(enum sim_irq_point where, unsigned long vaddr)
{
	unsigned long flags;

	if (!irq_armed || where != irq_where || vaddr != irq_va ||
	    current != main_thread || irq_landed)
		return;
	irq_landed++;
	flags = arch_local_irq_save();
	irq_enter();
	up(&h_go);
	irq_exit();                     /* H outranks main: it runs now, or at preempt_enable() */
	arch_local_irq_restore(flags);
}

/* Read a page through a fresh local map, as its next user would. */
static void read_through_new_map(struct page *p)
{
	char *v = kmap_local_page(p);
	volatile char sink = v[0];

	(void)sink;
	kunmap_local(v);
}

static void race(enum caller who, enum sim_irq_point where, bool holder_owns)
{
	struct page *mine = NULL, *other, *flushed;
	struct thread *h;
	char *vm = NULL;

	main_thread = current;
	/* H owns the slots unless main maps after it: then main's slot 0 displaces H's. */
	h_maps = holder_owns ? 1 : H_MAPS_MAX;
	for (int i = 0; i < h_maps; i++)
		h_pages[i] = host_alloc(ZONE_HIGHMEM);
	flushed = h_pages[h_maps - 1];
	other = host_alloc(ZONE_HIGHMEM);
	sema_init(&h_go, 0);
	sema_init(&h_end, 0);
	h = host_spawn("H", holder, NULL, HOST_PRIO_MAIN + 1);     /* maps, blocks */
	if (!holder_owns) {
		mine = host_alloc(ZONE_HIGHMEM);
		vm = kmap_local_page(mine);
		host_dirty(vm, "main's");
	}
	irq_where = where;
	irq_va = (unsigned long)h_va[h_maps - 1];
	irq_landed = 0;
	sim_irq_at = irq_wakes_holder;
	irq_armed = true;
	if (who == FLUSH_DEFERRED)
		kmap_flush_deferred(flushed);
	else
		__free_page(flushed);
	irq_armed = false;
	sim_irq_at = NULL;
	if (CONFIG_KMAP_DEFER)
		assert_int_equal(irq_landed, 1);        /* the slot was H's, and deferred */
	else if (!irq_landed)
		up(&h_go);                      /* eager: H's slots were empty, nothing to race */
	/* A reader of the flushed page's data (a device, or the page's next owner). */
	if (who == FLUSH_DEFERRED && irq_landed && where != SIM_IRQ_AFTER_TLB_FLUSH)
		assert_true(host_ram_holds(flushed, "H again"));        /* H wrote before the flush ended */
	if (who == FREE_PAGE)
		assert_ptr_equal(alloc_page(ZONE_HIGHMEM), flushed);   /* the next owner */
	read_through_new_map(other);            /* lands in main's next slot */
	read_through_new_map(flushed);
	if (vm) {
		assert_string_equal(vm, "main's");
		kunmap_local(vm);
	}
	up(&h_end);
	thread_join(h);
	if (who == FLUSH_DEFERRED)
		assert_true(host_ram_holds(flushed, "H again"));
}

#define RACE_TEST(name, who, where, owns)               \
	static void name(void **state)                  \
	{                                               \
		(void)state;                            \
		race(who, where, owns);                 \
	}

RACE_TEST(flush_deferred_holder_writes_before_pte_clear, FLUSH_DEFERRED, SIM_IRQ_AFTER_FLUSH, true)
RACE_TEST(flush_deferred_owner_runs_after_pte_clear, FLUSH_DEFERRED, SIM_IRQ_AFTER_TLB_FLUSH, true)
RACE_TEST(flush_deferred_holder_reinstalls_after_pte_clear, FLUSH_DEFERRED, SIM_IRQ_AFTER_TLB_FLUSH, false)
RACE_TEST(free_page_holder_writes_before_pte_clear, FREE_PAGE, SIM_IRQ_AFTER_FLUSH, true)
RACE_TEST(free_page_owner_runs_after_pte_clear, FREE_PAGE, SIM_IRQ_AFTER_TLB_FLUSH, true)
RACE_TEST(free_page_holder_reinstalls_after_pte_clear, FREE_PAGE, SIM_IRQ_AFTER_TLB_FLUSH, false)
/* The line work itself interrupted halfway, for completeness. */
RACE_TEST(flush_deferred_holder_writes_inside_line_work, FLUSH_DEFERRED, SIM_IRQ_IN_FLUSH, false)
RACE_TEST(free_page_holder_writes_inside_line_work, FREE_PAGE, SIM_IRQ_IN_FLUSH, true)

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(flush_deferred_holder_writes_before_pte_clear),
		HOST_TEST(flush_deferred_owner_runs_after_pte_clear),
		HOST_TEST(flush_deferred_holder_reinstalls_after_pte_clear),
		HOST_TEST(free_page_holder_writes_before_pte_clear),
		HOST_TEST(free_page_owner_runs_after_pte_clear),
		HOST_TEST(free_page_holder_reinstalls_after_pte_clear),
		HOST_TEST(flush_deferred_holder_writes_inside_line_work),
		HOST_TEST(free_page_holder_writes_inside_line_work),
	};

	return host_run_groups("defer_race", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
