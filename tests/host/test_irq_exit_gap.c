/*
 * The switch at an IRQ's exit lets pending interrupts in once first: a
 * second interrupt waits for the first one's handlers or for the switch,
 * not for both in one window. One landing there runs before the woken
 * thread, with the first one's level still counted, so it never switches
 * from its nested frame; what it wakes is served by the same switch.
 */
#include <stdio.h>
#include "host_test.h"
#include <asm/irqflags.h>
#include <lokal/platform.h>

/* A thread that waits on its semaphore, then notes its letter. */
struct waiter {
	struct semaphore sem;
	char letter;
};
static struct waiter h = { .letter = 'H' }, u = { .letter = 'U' };
static char order[8];
static unsigned int n_order;
static unsigned int nested_count;
static struct thread *nested_current_after_exit, *main_thread;
static bool nested_ran;

static void note(char c)
{
	if (n_order < sizeof(order) - 1)
		order[n_order++] = c;
}

static void waiter(void *arg)
{
	struct waiter *w = arg;

	down(&w->sem);
	note(w->letter);
}

/* The second interrupt: lands at the first unmask after the first one's handler. */
static void nested_irq(enum sim_irq_point where, unsigned long vaddr)
{
	unsigned long flags;

	(void)vaddr;
	if (where != SIM_IRQ_AT_UNMASK || nested_ran)
		return;
	nested_ran = true;
	note('n');
	nested_count = preempt_count();
	flags = arch_local_irq_save();
	irq_enter();
	up(&u.sem);                     /* wakes U, more urgent than H */
	irq_exit();
	nested_current_after_exit = current;
	arch_local_irq_restore(flags);
}

static void an_interrupt_at_the_exit_switch_comes_first_and_does_not_switch(void **state)
{
	unsigned long flags;

	(void)state;
	sema_init(&h.sem, 0);
	sema_init(&u.sem, 0);
	n_order = 0;
	nested_ran = false;
	main_thread = current;
	host_spawn("H", waiter, &h, HOST_PRIO_MAIN + 1);
	host_spawn("U", waiter, &u, HOST_PRIO_MAIN + 2);
	sim_irq_at = nested_irq;
	flags = arch_local_irq_save();
	irq_enter();
	up(&h.sem);                     /* the first interrupt wakes H */
	note('i');
	irq_exit();                     /* the second lands here, then U and H run */
	arch_local_irq_restore(flags);
	sim_irq_at = NULL;
	note('m');
	order[n_order] = 0;
	assert_true(nested_ran);
	assert_string_equal(order, "inUHm");
	assert_true(nested_count != 0); /* the first interrupt's level, still counted */
	assert_ptr_equal(nested_current_after_exit, main_thread);
	assert_int_equal(preempt_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(an_interrupt_at_the_exit_switch_comes_first_and_does_not_switch),
	};

	return host_run_groups("irq_exit_gap", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
