/*
 * An interrupt at every point of every scenario (tests/host/sweep): the
 * kmap schemes' switch-in and switch-out walks with several slots and the
 * same page in two threads, each service's blocking, timing-out and waking
 * paths, the timer thread, and dma_map/unmap. Each scenario runs once
 * without an interrupt, which counts the points where one could land, then
 * once per point and per action of its list, each run checked for its
 * data, the cache model's reports and the scheduler's invariants.
 *
 * known_defects[] names the scenarios that fail on this code, each with its
 * defect and the report that shows it: such a scenario passes only while
 * the sweep still finds that defect, and fails as soon as it stops (then
 * the entry must go) or fails another way. SWEEP_KNOWN_DEFECTS=0 in the
 * environment treats every scenario as one that must pass.
 */
#include <stdio.h>
#include <stdlib.h>
#include "host_test.h"
#include <asm/irqflags.h>
#include <lokal/platform.h>
#include <lokal/mutex.h>
#include <lokal/completion.h>
#include <lokal/event_flags.h>
#include <lokal/mempool.h>
#include <lokal/msgqueue.h>
#include <lokal/timer.h>
#include <lokal/dma-mapping.h>
#include <lokal/sched-internal.h>
#include "sweep/irq_sweep.h"

/* Thread stacks: room for ASan's frames, small enough that creating one costs little per run. */
#define SWEEP_STACK     (48 * 1024)

static struct thread *spawn(const char *name, void (*fn)(void *), void *arg, int prio)
{
	struct thread *t = thread_create(name, fn, arg, prio, SWEEP_STACK);

	assert_non_null(t);
	return t;
}

#define WAIT_TICKS      200     /* far beyond any scenario's need: a thread not done by then is lost */

static struct semaphore done;

/* Wait for n threads to up(&done); a thread still missing is reported with the scheduler's state. */
static void wait_done(unsigned int n, const char *what)
{
	for (unsigned int i = 0; i < n; i++)
		if (down_timeout(&done, WAIT_TICKS) != 0) {
			sweep_fail("%u of %u %s never finished", n - i, n, what);
			sweep_check_sched();
			return;
		}
}

/* ---- the kmap schemes: several slots, the same page in two threads ---- */

#define REGION_WORDS    256     /* a page: a region per thread, the last word the interrupt's */
#define IRQ_WORD        (PAGE_SIZE / 4 - 1)

enum { PG_A, PG_S, PG_P, PG_B, PG_C, PG_IRQ, NR_PG };
static struct page *pg[NR_PG];
static uint32_t irq_val[NR_PG];

struct walker {
	const char *name;
	int pages[3];           /* mapped in this order: slot 0, 1, 2 */
	int region;
	struct semaphore go;
	struct thread *t;
	bool finished;
};
static struct walker walkers[2] = {
	{ .name = "W", .pages = { PG_A, PG_S, PG_P }, .region = 0 },
	{ .name = "N", .pages = { PG_B, PG_S, PG_C }, .region = 1 },
};

static void fill(uint32_t *p, int region, uint32_t v)
{
	uint32_t *r = p + region * REGION_WORDS;

	for (unsigned int i = 0; i < REGION_WORDS; i += 8)
		(void)*(volatile uint32_t *)&r[i];      /* read-allocate: the stores are dirty hits */
	for (unsigned int i = 0; i < REGION_WORDS; i += 8)
		r[i] = v + i;
}

static bool holds(const uint32_t *p, int region, uint32_t v, const char *who, const char *when)
{
	const uint32_t *r = p + region * REGION_WORDS;

	for (unsigned int i = 0; i < REGION_WORDS; i += 8)
		if (r[i] != v + i) {
			sweep_fail("%s's data %s: word %u is 0x%x, expected 0x%x", who, when,
				   region * REGION_WORDS + i, r[i], v + i);
			return false;
		}
	return true;
}

static uint32_t seed(const struct walker *w, int d, int round)
{
	return 0x10000000u * (uint32_t)(w->region + 1) + 0x100000u * (uint32_t)d + 0x1000u * (uint32_t)round;
}

/* Map three pages, dirty them, be switched out and in holding them (blocked, then yielding), check. */
static void walker_fn(void *arg)
{
	struct walker *w = arg;
	uint32_t *v[3];

	for (int d = 0; d < 3; d++) {
		v[d] = kmap_local_page(pg[w->pages[d]]);
		fill(v[d], w->region, seed(w, d, 0));
	}
	down(&w->go);
	for (int d = 0; d < 3; d++) {
		holds(v[d], w->region, seed(w, d, 0), w->name, "after its switch-in");
		fill(v[d], w->region, seed(w, d, 1));
	}
	thread_yield();                 /* to its peer, both holding maps */
	for (int d = 0; d < 3; d++)
		holds(v[d], w->region, seed(w, d, 1), w->name, "after a yield");
	for (int d = 2; d >= 0; d--)
		kunmap_local(v[d]);
	w->finished = true;
	up(&done);
}

/* The interrupt maps page i, reads its word, writes it, unmaps: as a handler may. */
static void irq_map(int i)
{
	uint32_t *p;

	if (!pg[i])
		return;
	/* Also a page the interrupted thread holds: the map cleans that alias first. */
	p = kmap_local_page(pg[i]);
	if (p[IRQ_WORD] != irq_val[i])
		sweep_fail("the IRQ handler reads 0x%x in page %d, its last write was 0x%x",
			   p[IRQ_WORD], i, irq_val[i]);
	p[IRQ_WORD] = ++irq_val[i];
	kunmap_local(p);
}

static void irq_map_s(void) { irq_map(PG_S); }
static void irq_map_p(void) { irq_map(PG_P); }
static void irq_map_c(void) { irq_map(PG_C); }
static void irq_map_own(void) { irq_map(PG_IRQ); }

static void irq_wake(struct walker *w)
{
	if (w->t)
		up(&w->go);
}
static void irq_wake_w(void) { irq_wake(&walkers[0]); }
static void irq_wake_n(void) { irq_wake(&walkers[1]); }

static void kmap_walks(void)
{
	sema_init(&done, 0);
	for (int i = 0; i < NR_PG; i++) {
		pg[i] = host_alloc(ZONE_HIGHMEM);
		irq_val[i] = 0;
	}
	for (int i = 0; i < 2; i++) {
		sema_init(&walkers[i].go, 0);
		walkers[i].finished = false;
		walkers[i].t = NULL;
	}
	for (int i = 0; i < 2; i++)
		walkers[i].t = spawn(walkers[i].name, walker_fn, &walkers[i], HOST_PRIO_MAIN - 4);
	sleep_ticks(1);                 /* both map and block: N's maps displace W's */
	up(&walkers[0].go);             /* W's switch-in puts its maps back over N's ... */
	up(&walkers[1].go);             /* ... then they yield to each other, maps held */
	sleep_ticks(1);
	for (int i = 0; i < 2; i++)     /* a wake-up an interrupt already gave stays counted */
		up(&walkers[i].go);
	wait_done(2, "kmap walkers");
	for (int i = 0; i < 2; i++) {
		struct thread *t = walkers[i].t;

		walkers[i].t = NULL;            /* an interrupt from here on finds none */
		if (walkers[i].finished)
			thread_join(t);
	}
}

/* Every page as its next reader sees it (kmap() flushes any other alias first). */
static void kmap_walks_check(void)
{
	for (int i = 0; i < NR_PG; i++) {
		uint32_t *k = kmap(pg[i]);

		for (int w = 0; w < 2; w++)
			for (int d = 0; d < 3; d++)
				if (walkers[w].pages[d] == i && walkers[w].finished)
					holds(k, walkers[w].region, seed(&walkers[w], d, 1), walkers[w].name,
					      "in memory after the run");
		if (k[IRQ_WORD] != irq_val[i])
			sweep_fail("page %d's IRQ word in memory is 0x%x, the handler last wrote 0x%x",
				   i, k[IRQ_WORD], irq_val[i]);
		kunmap(pg[i]);
	}
}

/* Suspension has its own scenario (switch_out_suspend); here: maps and wake-ups. */
static const struct sweep_action kmap_actions[] = {
	{ "map the page W and N share", irq_map_s }, { "map W's top page", irq_map_p },
	{ "map N's top page", irq_map_c }, { "map a page of its own", irq_map_own },
	{ "wake W", irq_wake_w }, { "wake N", irq_wake_n },
};

/* ---- a switch-out with maps, while the next thread is suspended and another woken ---- */

static struct thread *sn_next, *sn_woken;
static struct semaphore sn_sem;
static bool sn_next_done, sn_woken_done, sn_given;

static void sn_next_fn(void *arg)
{
	(void)arg;
	sn_next_done = true;
	up(&done);
}

static void sn_woken_fn(void *arg)
{
	(void)arg;
	down(&sn_sem);
	sn_woken_done = true;
	up(&done);
}

static void irq_sn_give(void)
{
	if (sn_woken && !sn_given) {
		sn_given = true;
		up(&sn_sem);
	}
}
static void irq_sn_suspend(void)
{
	if (sn_next && sn_next != current && !sn_next_done)
		thread_suspend(sn_next);
}
static void irq_sn_resume(void)
{
	if (sn_next)
		thread_resume(sn_next);
}
/* One handler, two events: a thread woken into next's queue, then next suspended. */
static void irq_sn_give_suspend(void)
{
	irq_sn_give();
	irq_sn_suspend();
}

static void switch_out_suspend(void)
{
	struct page *mine = host_alloc(ZONE_HIGHMEM);
	char *v;

	sema_init(&done, 0);
	sema_init(&sn_sem, 0);
	sn_next = sn_woken = NULL;
	sn_next_done = sn_woken_done = sn_given = false;
	sn_woken = spawn("T", sn_woken_fn, NULL, HOST_PRIO_MAIN - 4);
	sleep_ticks(1);                 /* T blocks on its semaphore */
	sn_next = spawn("next", sn_next_fn, NULL, HOST_PRIO_MAIN - 4);
	v = kmap_local_page(mine);
	host_dirty(v, "main's");
	sleep_ticks(1);                 /* the switch to next takes main's map down */
	if (strcmp(v, "main's") != 0)
		sweep_fail("main's page holds \"%.8s\" after its switch-in", v);
	kunmap_local(v);
	if (sn_next->suspended)
		thread_resume(sn_next);
	irq_sn_give();
	wait_done(2, "threads");
	{
		struct thread *n = sn_next, *t = sn_woken;

		sn_next = sn_woken = NULL;      /* an interrupt from here on finds none */
		if (sn_next_done)
			thread_join(n);
		if (sn_woken_done)
			thread_join(t);
	}
}

static const struct sweep_action suspend_actions[] = {
	{ "give T's semaphore", irq_sn_give }, { "suspend next", irq_sn_suspend },
	{ "resume next", irq_sn_resume },
	{ "give T's semaphore, then suspend next", irq_sn_give_suspend },
};

/* ---- message queues: a blocked receiver and a blocked sender, with local-map buffers ---- */

#define MSG     16
static struct msgqueue mq;
static char mq_ring[MSG];
static struct thread *mq_r;
static bool mq_r_done;
static unsigned int mq_irq_sent, mq_irq_got;
static const char irq_msg[MSG] = "from the IRQ";

/* Receive twice into a local map's page, the first time blocking; each message is whole. */
static void mq_receiver(void *arg)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	char *buf = kmap_local_page(p);

	(void)arg;
	for (int i = 0; i < 2; i++) {
		memset(buf, 0, MSG);
		if (msgq_receive(&mq, buf, WAIT_TICKS) != 0) {
			sweep_fail("receive %d timed out", i);
			break;
		}
		if (strcmp(buf, "main's message") != 0 && strcmp(buf, irq_msg) != 0)
			sweep_fail("receive %d into a local map got \"%.15s\"", i, buf);
	}
	kunmap_local(buf);
	__free_page(p);
	mq_r_done = true;
	up(&done);
}

static void irq_mq_send(void)
{
	if (mq_r && msgq_try_send(&mq, irq_msg) == 0)
		mq_irq_sent++;
}
static void irq_mq_receive(void)
{
	char m[MSG];

	if (mq_r && msgq_try_receive(&mq, m) == 0) {
		mq_irq_got++;
		if (strcmp(m, "main's message") != 0 && strcmp(m, irq_msg) != 0)
			sweep_fail("the IRQ received \"%.15s\"", m);
	}
}

/* main sends from a local map of its own, the receiver waiting with one. */
static void msgq_paths(void)
{
	struct page *p = host_alloc(ZONE_HIGHMEM);
	char *msg;

	sema_init(&done, 0);
	msgq_init(&mq, mq_ring, 1 * MSG, MSG);
	mq_irq_sent = mq_irq_got = 0;
	mq_r_done = false;
	mq_r = NULL;
	mq_r = spawn("R", mq_receiver, NULL, HOST_PRIO_MAIN - 4);
	sleep_ticks(1);                 /* R blocks in its receive */
	msg = kmap_local_page(p);
	strcpy(msg, "main's message");
	for (int i = 0; i < 3 && !mq_r_done; i++)
		if (msgq_send(&mq, msg, 3) == 0)     /* a full ring times out: the IRQ took or gave */
			sleep_ticks(1);
	kunmap_local(msg);
	wait_done(1, "receivers");
	{
		struct thread *r = mq_r;

		mq_r = NULL;
		if (mq_r_done)
			thread_join(r);
	}
}

static const struct sweep_action msgq_actions[] = {
	{ "send on the queue", irq_mq_send }, { "receive on the queue", irq_mq_receive },
};

/* ---- the other services: blocking, timing out, waking ---- */

static struct semaphore sv_sem;
static struct mutex sv_mutex;
static struct completion sv_comp;
static struct event_flags sv_flags;
static struct mempool sv_pool;
static uint64_t sv_pool_region[64];
static void *sv_blocks[8];
static unsigned int sv_nblocks;
static bool sv_ready;
static unsigned int sv_sem_given, sv_sem_taken, sv_comp_given, sv_comp_taken;

static void sv_waiter(void *arg)
{
	uint32_t got;
	void *b;

	(void)arg;
	for (int round = 0; round < 2; round++) {
		if (down_timeout(&sv_sem, 2) == 0)
			sv_sem_taken++;
		if (wait_for_completion_timeout(&sv_comp, 2) > 0)
			sv_comp_taken++;
		if (event_flags_wait(&sv_flags, 3, EF_ANY | EF_CLEAR, &got, 2) == 0 && !(got & 3))
			sweep_fail("event flags: woken with 0x%x, wanted any of 0x3", got);
		if (mempool_alloc(&sv_pool, &b, 2) == 0)
			mempool_free(&sv_pool, b);
		if (mutex_lock_timeout(&sv_mutex, 2) == 0)
			mutex_unlock(&sv_mutex);
	}
	up(&done);
}

static void irq_sv_up(void)
{
	if (sv_ready) {
		sv_sem_given++;
		up(&sv_sem);
	}
}
static void irq_sv_complete(void)
{
	if (sv_ready) {
		sv_comp_given++;
		complete(&sv_comp);
	}
}
static void irq_sv_flags(void)
{
	if (sv_ready)
		event_flags_set(&sv_flags, 1);
}
static void irq_sv_take(void)
{
	if (sv_ready && !down_trylock(&sv_sem))
		sv_sem_taken++;
}
static void irq_sv_tick(void)
{
	sched_tick();
}

static void services(void)
{
	struct thread *w;

	sema_init(&done, 0);
	sema_init(&sv_sem, 0);
	mutex_init(&sv_mutex);
	init_completion(&sv_comp);
	event_flags_init(&sv_flags);
	sv_nblocks = mempool_init(&sv_pool, sv_pool_region, sizeof(sv_pool_region), 64);
	assert_true(sv_nblocks > 0 && sv_nblocks <= 8);
	sv_sem_given = sv_sem_taken = sv_comp_given = sv_comp_taken = 0;
	for (unsigned int i = 0; i < sv_nblocks; i++)     /* the pool is empty: its waiter blocks */
		sv_blocks[i] = mempool_try_alloc(&sv_pool);
	sv_ready = true;
	w = spawn("waiter", sv_waiter, NULL, HOST_PRIO_MAIN + 1);
	/* main holds the mutex while the waiter tries it, then gives each service once. */
	mutex_lock(&sv_mutex);
	up(&sv_sem);
	sv_sem_given++;
	complete(&sv_comp);
	sv_comp_given++;
	event_flags_set(&sv_flags, 2);
	for (unsigned int i = 0; i < sv_nblocks; i++)
		mempool_free(&sv_pool, sv_blocks[i]);
	sleep_ticks(3);
	mutex_unlock(&sv_mutex);
	wait_done(1, "waiters");
	sv_ready = false;
	thread_join(w);
}

static void services_check(void)
{
	if (sv_sem_taken > sv_sem_given || sv_sem.count != (int)(sv_sem_given - sv_sem_taken))
		sweep_fail("semaphore: %u given, %u taken, count %d", sv_sem_given, sv_sem_taken,
			   sv_sem.count);
	if (sv_comp_taken > sv_comp_given)
		sweep_fail("completion: %u given, %u taken", sv_comp_given, sv_comp_taken);
	if (mempool_nr_free(&sv_pool) != sv_nblocks)
		sweep_fail("mempool: %u of %u blocks free at the end", mempool_nr_free(&sv_pool),
			   sv_nblocks);
}

static const struct sweep_action service_actions[] = {
	{ "give the semaphore", irq_sv_up }, { "take the semaphore", irq_sv_take },
	{ "complete", irq_sv_complete }, { "set an event flag", irq_sv_flags },
	{ "a timer tick", irq_sv_tick },
};

/* ---- the timer thread ---- */

static struct timer_list tm_a, tm_b, tm_irq;
static struct semaphore tm_b_go;
static bool tm_ready;
static unsigned int tm_fired;

static void tm_fn(struct timer_list *t)
{
	(void)t;
	tm_fired++;
}

static void tm_b_fn(void *arg)
{
	(void)arg;
	down(&tm_b_go);
	timer_setup(&tm_b, tm_fn, 0);
	mod_timer(&tm_b, jiffies_read() + 1);
	up(&done);
}

static void irq_tm_wake_b(void)
{
	up(&tm_b_go);
}
static void irq_tm_arm(void)
{
	if (tm_ready)
		mod_timer(&tm_irq, jiffies_read() + 1);
}
static void irq_tm_del(void)
{
	if (tm_ready)
		del_timer(&tm_irq);
}

/* The first timer_setup() starts the timer thread while a thread above main wants one too. */
static void timer_thread(void)
{
	struct thread *b;

	sema_init(&done, 0);
	sema_init(&tm_b_go, 0);
	tm_ready = false;
	tm_fired = 0;
	b = spawn("B", tm_b_fn, NULL, HOST_PRIO_MAIN + 2);    /* waits for its go */
	timer_setup(&tm_a, tm_fn, 0);
	timer_setup(&tm_irq, tm_fn, 0);
	tm_ready = true;
	mod_timer(&tm_a, jiffies_read() + 2);
	up(&tm_b_go);
	wait_done(1, "timer users");
	sleep_ticks(4);
	del_timer_sync(&tm_irq);
	thread_join(b);
	tm_ready = false;
}

static void timer_thread_check(void)
{
	const struct list_head *pos;
	unsigned int n = 0;

	list_for_each(pos, &all_threads)
		if (strcmp(list_entry(pos, struct thread, all)->name, "timers") == 0)
			n++;
	if (n != 1)
		sweep_fail("timer thread: %u threads named \"timers\", one expected", n);
	if (tm_fired < 2)
		sweep_fail("timers: %u callbacks ran, at least 2 expected (tm_a, tm_b)", tm_fired);
}

static const struct sweep_action timer_actions[] = {
	{ "wake B (which sets up a timer)", irq_tm_wake_b },
	{ "arm a timer", irq_tm_arm }, { "delete a timer", irq_tm_del },
};

/* ---- streaming DMA: map, transfer, unmap, the CPU using its own bytes meanwhile ---- */

static struct page *dma_pg;
static size_t dma_off, dma_len;
static bool dma_started, dma_completed;
static struct completion dma_done;
static uint8_t dma_data[128];

/* The device writes the buffer and raises its completion. */
static void irq_dma_complete(void)
{
	if (!dma_started || dma_completed)
		return;
	dma_completed = true;
	sim_dma_write(host_pa(dma_pg) + dma_off, dma_data, dma_len);
	complete(&dma_done);
}

/* A FROM_DEVICE buffer at [off, off + len) of a lowmem page; the CPU updates byte 0 meanwhile. */
/*
 * A transfer from the device into [off, off + len) of a lowmem page whose
 * byte 0 is the CPU's. write_during: the CPU writes its byte during the
 * transfer (allowed only when the byte is in no line of the buffer: the
 * rule docs/user-guide.md states); otherwise it reads it then and writes after.
 */
static void dma_from_device(size_t off, size_t len, bool write_during)
{
	uint8_t *va;
	dma_addr_t d;

	dma_pg = host_alloc(ZONE_LOWMEM);
	va = page_address(dma_pg);
	dma_off = off;
	dma_len = len;
	for (size_t i = 0; i < len; i++)
		dma_data[i] = (uint8_t)(0xa0 + i);
	init_completion(&dma_done);
	dma_started = dma_completed = false;
	va[0] = 1;                              /* the CPU's own byte, before the buffer */
	d = dma_map_page(dma_pg, off, len, DMA_FROM_DEVICE);
	dma_started = true;
	/* The CPU keeps using its byte during the transfer: a load (which allocates), then a store. */
	if (write_during)
		*(volatile uint8_t *)va = (uint8_t)(*(volatile uint8_t *)va + 1);
	else if (*(volatile uint8_t *)va != 1)
		sweep_fail("DMA: the CPU's own byte is %u during the transfer, it wrote 1", va[0]);
	if (!try_wait_for_completion(&dma_done)) {
		if (wait_for_completion_timeout(&dma_done, 1) == 0)
			irq_dma_complete();     /* the device finishes while the thread waits */
	}
	dma_unmap_page(d, len, DMA_FROM_DEVICE);
	if (!write_during)
		va[0]++;
	if (memcmp(va + off, dma_data, len) != 0)
		sweep_fail("DMA buffer [%zu, %zu): the CPU reads other bytes than the device wrote",
			   off, off + len);
	if (va[0] != 2)
		sweep_fail("DMA: the CPU's own byte is %u, it wrote 2", va[0]);
	dma_started = false;
	dma_pg = NULL;
}

static void dma_aligned(void)
{
	dma_from_device(64, 64, true);
}

/* A buffer sharing its first line with the CPU's byte, which the CPU only reads meanwhile. */
static void dma_misaligned(void)
{
	dma_from_device(8, 48, false);
}

/*
 * Not "the IRQ reads another byte of the page": arch/sim fills every line of
 * a page on a read miss, so that read would bring the buffer's lines in
 * during the transfer, which the ARM926 (one line per miss) does not do.
 */
static const struct sweep_action dma_actions[] = {
	{ "complete the DMA", irq_dma_complete },
};

/* ---- the scenarios, the known defects, the counts ---- */

enum { DEFERRED = 1, EAGER = 2, DEBUG = 4, ALL = 7 };

/*
 * The kmap schemes' scenarios run in every build; the services', the
 * timer thread's and DMA's code is the same in each, so they run in the
 * default one only. Every point is swept in the default build; in the
 * others, whose switches have more points (the eager scheme's teardown,
 * the debug build's invariant walk, which lets interrupts in at each
 * step), one point in stride[] to keep make check's time (the count line
 * says so). SWEEP_STRIDE=1 in the environment sweeps every point.
 */
#define SCENARIO(n, acts, chk, b, se, sd) \
	{ { #n, n, acts, sizeof(acts) / sizeof(acts[0]), chk }, b, { 1, se, sd } }
static const struct {
	struct sweep_scenario s;
	unsigned int builds;
	unsigned int stride[3];         /* default, eager, debug */
} scenarios[] = {
	SCENARIO(kmap_walks, kmap_actions, kmap_walks_check, ALL, 2, 8),
	SCENARIO(switch_out_suspend, suspend_actions, NULL, ALL, 2, 2),
	SCENARIO(msgq_paths, msgq_actions, NULL, DEFERRED, 1, 1),
	SCENARIO(services, service_actions, services_check, DEFERRED, 1, 1),
	SCENARIO(timer_thread, timer_actions, timer_thread_check, DEFERRED, 1, 1),
	SCENARIO(dma_aligned, dma_actions, NULL, DEFERRED, 1, 1),
	SCENARIO(dma_misaligned, dma_actions, NULL, DEFERRED, 1, 1),
};

/*
 * Defects of this code that the sweep finds and that are not fixed yet: a
 * scenario listed here for this build must fail, with one of the reports
 * ('|' between them) in its first failing run's output, so a new scenario
 * can land before its fix and the entry must go with the fix. None now.
 */
static const struct known_defect {
	const char *scenario;
	unsigned int builds;
	const char *defect;
	const char *reports;
} known_defects[] = {
	{ NULL, 0, NULL, NULL }
};

static unsigned int this_build(void)
{
	return CONFIG_DEBUG_HIGHMEM ? DEBUG : CONFIG_KMAP_DEFER ? DEFERRED : EAGER;
}

static const struct known_defect *known_defect(const char *scenario)
{
	const char *env = getenv("SWEEP_KNOWN_DEFECTS");

	if (env && strcmp(env, "0") == 0)
		return NULL;
	for (size_t i = 0; known_defects[i].scenario; i++)
		if (strcmp(known_defects[i].scenario, scenario) == 0 &&
		    (known_defects[i].builds & this_build()))
			return &known_defects[i];
	return NULL;
}

/* One of the '|'-separated reports in text. */
static bool found(const char *text, const char *reports)
{
	char one[128];

	while (*reports) {
		size_t n = strcspn(reports, "|");

		snprintf(one, sizeof(one), "%.*s", (int)n, reports);
		if (strstr(text, one))
			return true;
		reports += n + (reports[n] ? 1 : 0);
	}
	return false;
}

static void sweep_one(unsigned int i)
{
	static struct sweep_result res;
	const struct sweep_scenario *s = &scenarios[i].s;
	const struct known_defect *kd = known_defect(s->name);
	const char *env = getenv("SWEEP_STRIDE");
	unsigned int stride = env ? (unsigned int)atoi(env) :
			      scenarios[i].stride[CONFIG_DEBUG_HIGHMEM ? 2 : CONFIG_KMAP_DEFER ? 0 : 1];

	sweep_scenario(s, 1, stride ? stride : 1, &res);
	printf("sweep: %s: %u points, %u runs, %u reports", s->name, res.points, res.runs,
	       res.reports);
	if (stride > 1)
		printf(" (IRQs at one point in %u: points 1, %u, %u, ...)", stride, 1 + stride,
		       1 + 2 * stride);
	printf("\n");
	if (res.reports)
		printf("%s", res.first);
	if (res.points == 0)
		fail_msg("%s: no landing point found", s->name);
	if (!kd) {
		if (res.reports)
			fail_msg("%s", res.first);
		return;
	}
	if (!res.reports)
		fail_msg("%s: the sweep no longer finds %s: take it out of known_defects", s->name,
			 kd->defect);
	if (!found(res.first, kd->reports))
		fail_msg("%s: fails, but not with \"%s\" (%s):\n%s", s->name, kd->reports,
			 kd->defect, res.first);
	printf("sweep: %s: known defect, found as expected until it is fixed: %s\n", s->name,
	       kd->defect);
}

#define SWEEP_TEST(i, n)                                                \
	static void sweep_##n(void **state)                             \
	{                                                               \
		(void)state;                                            \
		sweep_one(i);                                           \
	}
SWEEP_TEST(0, kmap_walks)
SWEEP_TEST(1, switch_out_suspend)
SWEEP_TEST(2, msgq_paths)
SWEEP_TEST(3, services)
SWEEP_TEST(4, timer_thread)
SWEEP_TEST(5, dma_aligned)
SWEEP_TEST(6, dma_misaligned)

int main(void)
{
	const struct CMUnitTest all[] = {
		HOST_TEST(sweep_kmap_walks),
		HOST_TEST(sweep_switch_out_suspend),
		HOST_TEST(sweep_msgq_paths),
		HOST_TEST(sweep_services),
		HOST_TEST(sweep_timer_thread),
		HOST_TEST(sweep_dma_aligned),
		HOST_TEST(sweep_dma_misaligned),
	};
	struct CMUnitTest tests[sizeof(all) / sizeof(all[0])];
	size_t n = 0;

	_Static_assert(sizeof(all) / sizeof(all[0]) == sizeof(scenarios) / sizeof(scenarios[0]),
		       "one test per scenario");
	/* A scenario whose code is the same in every build runs in the default one only. */
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (scenarios[i].builds & this_build())
			tests[n++] = all[i];
	return host_run_groups("irq_sweep", NULL, 0, tests, n);
}
