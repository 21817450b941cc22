/*
 * Bad calls to the services end in a diagnostic naming the call, the
 * thread and the address: NULL and uninitialised handles, zero sizes, and
 * blocking calls from an IRQ handler or with preemption off.
 */
#include <stdio.h>
#include "host_test.h"
#include <lokal/completion.h>
#include <lokal/msgqueue.h>
#include <lokal/mempool.h>
#include <lokal/event_flags.h>
#include <lokal/platform.h>
#include <lokal/timer.h>

static struct semaphore never_initialised;
static struct msgqueue q;
static uint32_t ring[4];
static uint32_t msg[4];
static char addr[32];

static void do_down_null(void *a) { (void)a; down(NULL); }
static void do_up_uninit(void *a) { (void)a; up(&never_initialised); }
static void do_mutex_null(void *a) { (void)a; mutex_lock(NULL); }
static void do_complete_null(void *a) { (void)a; complete(NULL); }
static void do_send_null(void *a) { (void)a; msgq_send(NULL, msg, 0); }
static void do_send_uninit(void *a) { (void)a; msgq_send(a, msg, 0); }
static void do_send_null_msg(void *a) { (void)a; msgq_send(&q, NULL, 0); }
static void do_msgq_size0(void *a) { (void)a; msgq_init(&q, ring, 64, 0); }
static void do_msgq_cap0(void *a) { (void)a; msgq_init(&q, ring, 8, 16); }
static void do_pool_null(void *a) { (void)a; mempool_try_alloc(NULL); }
static void do_pool_size0(void *a) { static struct mempool p; (void)a; mempool_init(&p, ring, 16, 0); }
static void do_flags_null(void *a) { (void)a; event_flags_set(NULL, 1); }
static void nothing(void *a) { (void)a; }
static void do_create_prio99(void *a) { (void)a; thread_create("bad-prio", nothing, NULL, 99, 0); }
static void do_create_prio0(void *a) { (void)a; thread_create_suspended("idle-prio", nothing, NULL, 0, 0); }
static void do_create_no_entry(void *a) { (void)a; thread_create("no-entry", NULL, NULL, 5, 0); }
static void do_join_self(void *a) { (void)a; thread_join(current); }
static void tick_fn(struct timer_list *t) { (void)t; }
static void do_period0(void *a)
{
	static struct timer_list t;

	(void)a;
	timer_setup(&t, tick_fn, 0);
	mod_timer_periodic(&t, jiffies_read() + 1, 0);
}

static void do_receive_in_irq(void *a)
{
	(void)a;
	irq_enter();
	msgq_receive(&q, msg, 5);
}

/*
 * Calls with a time-out from a handler that would not have to wait: caught
 * in every build, each naming itself.
 */
static void do_send_room_in_irq(void *a)
{
	(void)a;
	irq_enter();
	msgq_send(&q, msg, 5);          /* the ring has room */
}

static void do_down_free_in_irq(void *a)
{
	static DEFINE_SEMAPHORE(s, 1);

	(void)a;
	irq_enter();
	down_timeout(&s, 5);
}

static void do_alloc_free_in_irq(void *a)
{
	static uint64_t region[64];
	static struct mempool pool;
	void *b;

	(void)a;
	mempool_init(&pool, region, sizeof(region), 32);
	irq_enter();
	mempool_alloc(&pool, &b, 5);
}

static void do_flags_set_in_irq(void *a)
{
	static DEFINE_EVENT_FLAGS(ev);

	(void)a;
	event_flags_set(&ev, 1);
	irq_enter();
	event_flags_wait(&ev, 1, EF_ANY, NULL, 5);
}

static void do_down_atomic(void *a)
{
	static DEFINE_SEMAPHORE(s, 0);

	(void)a;
	preempt_disable();
	down_timeout(&s, 5);
}

/* A yield from atomic context is reported, even with nothing to switch to. */
static void do_yield_atomic(void *a)
{
	(void)a;
	preempt_disable();
	thread_yield();
}

#if CONFIG_DEBUG_HIGHMEM
/* The debug build checks every call that may block, even one that would not. */
static void do_down_atomic_not_blocking(void *a)
{
	static DEFINE_SEMAPHORE(s, 1);

	(void)a;
	preempt_disable();
	down_timeout(&s, 5);
}
#endif

static void do_lock_in_irq(void *a)
{
	static struct mutex m = MUTEX_INIT(m);

	(void)a;
	irq_enter();
	mutex_trylock(&m);
	mutex_lock_timeout(&m, 0);
}

static void handles_are_checked(void **state)
{
	(void)state;
	EXPECT_PANIC(do_down_null, NULL, "down((nil)) in thread 'main': NULL semaphore");
	snprintf(addr, sizeof(addr), "up(%p)", (void *)&never_initialised);
	EXPECT_PANIC(do_up_uninit, NULL, addr, "thread 'main'", "not an initialised semaphore");
	EXPECT_PANIC(do_mutex_null, NULL, "thread 'main'", "NULL mutex");
	EXPECT_PANIC(do_complete_null, NULL, "complete((nil))", "thread 'main'", "NULL completion");
	EXPECT_PANIC(do_send_null, NULL, "msgq_send((nil))", "NULL message queue");
	snprintf(addr, sizeof(addr), "msgq_send(%p)", (void *)ring);
	EXPECT_PANIC(do_send_uninit, ring, addr, "thread 'main'", "not an initialised message queue");
	EXPECT_PANIC(do_pool_null, NULL, "mempool_try_alloc((nil))", "NULL memory pool");
	EXPECT_PANIC(do_flags_null, NULL, "event_flags_set((nil))", "NULL event flag group");
}

static void thread_and_timer_arguments_are_checked(void **state)
{
	(void)state;
	EXPECT_PANIC(do_create_prio99, NULL, "thread_create('bad-prio', ", "prio 99) in thread 'main'",
		     "priority out of range");
	EXPECT_PANIC(do_create_prio0, NULL, "thread_create_suspended('idle-prio', ", "prio 0)",
		     "priority out of range");
	EXPECT_PANIC(do_create_no_entry, NULL, "thread_create('no-entry', (nil), prio 5)",
		     "NULL entry point");
	EXPECT_PANIC(do_join_self, NULL, "thread_join(", "thread 'main': a thread cannot join itself");
	EXPECT_PANIC(do_period0, NULL, "mod_timer_periodic(", ", 0) in thread 'main': period 0");
}

static void sizes_and_buffers_are_checked(void **state)
{
	(void)state;
	EXPECT_PANIC(do_msgq_size0, NULL, "msgq_init(", "thread 'main'", "message size 0");
	EXPECT_PANIC(do_msgq_cap0, NULL, "msgq_init(", "thread 'main'", "ring smaller than one message");
	msgq_init(&q, ring, 1 * 16, 16);
	EXPECT_PANIC(do_send_null_msg, NULL, "msgq_send(", "thread 'main'", "NULL message buffer");
	EXPECT_PANIC(do_pool_size0, NULL, "mempool_init(", "thread 'main'", "block size 0");
}

static void blocking_from_atomic_context_is_checked(void **state)
{
	(void)state;
	msgq_init(&q, ring, 1 * 16, 16);
	EXPECT_PANIC(do_receive_in_irq, NULL, "msgq_receive() may block, called from an IRQ handler",
		     "interrupting thread 'main'");
	EXPECT_PANIC(do_send_room_in_irq, NULL, "msgq_send() may block, called from an IRQ handler",
		     "interrupting thread 'main'");
	EXPECT_PANIC(do_down_free_in_irq, NULL, "down_timeout() may block, called from an IRQ handler",
		     "interrupting thread 'main'");
	EXPECT_PANIC(do_alloc_free_in_irq, NULL, "mempool_alloc() may block, called from an IRQ handler",
		     "interrupting thread 'main'");
	EXPECT_PANIC(do_flags_set_in_irq, NULL, "event_flags_wait() may block, called from an IRQ handler",
		     "interrupting thread 'main'");
	EXPECT_PANIC(do_down_atomic, NULL, "sleeping function called from invalid context",
		     "thread 'main', preempt_count 0x1");
	EXPECT_PANIC(do_yield_atomic, NULL, "sleeping function called from invalid context",
		     "thread 'main', preempt_count 0x1");
#if CONFIG_DEBUG_HIGHMEM
	EXPECT_PANIC(do_down_atomic_not_blocking, NULL, "sleeping function called from invalid context",
		     "thread 'main', preempt_count 0x1");
#endif
	EXPECT_PANIC(do_lock_in_irq, NULL, "mutex_lock_timeout(", "IRQ handler", "thread 'main'");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(handles_are_checked),
		HOST_TEST(thread_and_timer_arguments_are_checked),
		HOST_TEST(sizes_and_buffers_are_checked),
		HOST_TEST(blocking_from_atomic_context_is_checked),
	};

	return host_run_groups("services_misuse", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
