/*
 * Random mixes of the services between threads at several priorities,
 * with random timeouts, ticks landing between any two calls, gives from
 * "IRQs", and threads suspended and resumed at random. At the end nothing
 * is lost or duplicated, no waiter is stranded (every worker finishes in
 * bounded time), and every counter balances: semaphore units, messages
 * (each sent one received exactly once), pool blocks (never two owners),
 * completions, and the mutex's owner.
 */
#include <stdio.h>
#include "host_test.h"
#include <lokal/completion.h>
#include <lokal/msgqueue.h>
#include <lokal/mempool.h>
#include <lokal/event_flags.h>
#include <lokal/platform.h>
#include <asm/irqflags.h>

#define WORKERS         6
#define OPS             1500
#define SEM_UNITS       3
#define MSG_IDS         (WORKERS * OPS + OPS)

static struct semaphore sem;
static struct mutex mtx;
static struct completion compl;
static struct msgqueue q;
static uint32_t ring[6 * 4];
static struct mempool pool;
static uint64_t region[80];
static struct event_flags ev;
static struct thread *workers[WORKERS];
static struct completion finished;

static unsigned char sent[MSG_IDS], received[MSG_IDS];
static unsigned int next_id;
static unsigned long compl_given, compl_taken;
static struct thread *mutex_holder;
static unsigned int pool_owner_bad, mutex_bad, msg_bad;

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

static void irq_give(uint32_t r)
{
	unsigned long flags = arch_local_irq_save();
	uint32_t m[4];

	irq_enter();
	switch (r % 4) {
	case 0:
		up(&sem);       /* taken back below by a down_trylock, or it would unbalance */
		if (down_trylock(&sem))
			sem.count--;    /* unreachable: just given */
		break;
	case 1:
		m[0] = next_id++;
		m[1] = ~m[0];
		if (msgq_try_send(&q, m) == 0)
			sent[m[0]]++;
		break;
	case 2:
		event_flags_set(&ev, 1u << (r % 8));
		break;
	case 3:
		compl_given++;
		complete(&compl);
		break;
	}
	irq_exit();
	arch_local_irq_restore(flags);
}

static void worker(void *arg)
{
	uint32_t seed = 0x9e3779b9u * ((uint32_t)(uintptr_t)arg + 1);
	uint32_t *held[2] = { NULL, NULL };
	int units = 0;

	for (int op = 0; op < OPS; op++) {
		uint32_t r = lcg(&seed);
		long timeout = (long)(r % 4);
		uint32_t m[4];

		if (r % 7 == 0)
			host_tick();
		switch ((r >> 4) % 8) {
		case 0:
			if (units < 2 && down_timeout(&sem, timeout) == 0)
				units++;
			else if (units) {
				units--;
				up(&sem);
			}
			break;
		case 1:
			m[0] = next_id++;
			m[1] = ~m[0];
			if (msgq_send(&q, m, timeout) == 0)
				sent[m[0]]++;
			break;
		case 2:
			if (msgq_receive(&q, m, timeout) == 0) {
				msg_bad += m[1] != ~m[0];
				received[m[0]]++;
			}
			break;
		case 3: {
			int slot = (int)(r >> 12) & 1;

			if (held[slot]) {
				pool_owner_bad += held[slot][0] != (uint32_t)(uintptr_t)arg;
				mempool_free(&pool, held[slot]);
				held[slot] = NULL;
			} else if (mempool_alloc(&pool, (void **)&held[slot], timeout) == 0) {
				held[slot][0] = (uint32_t)(uintptr_t)arg;
			}
			break;
		}
		case 4:
			event_flags_wait(&ev, 0xffu, EF_ANY | EF_CLEAR, NULL, timeout);
			break;
		case 5:
			if (wait_for_completion_timeout(&compl, timeout))
				compl_taken++;
			break;
		case 6:
			if (mutex_lock_timeout(&mtx, timeout) == 0) {
				mutex_bad += mutex_holder != NULL;
				mutex_holder = current;
				if (r & 0x100)
					host_tick();
				mutex_bad += mutex_holder != current;
				mutex_holder = NULL;
				mutex_unlock(&mtx);
			}
			break;
		case 7:
			if (r & 0x200) {
				thread_suspend(workers[(r >> 10) % WORKERS]);
			} else {
				for (int i = 0; i < WORKERS; i++)
					if (workers[i])
						thread_resume(workers[i]);
				irq_give(r >> 12);
			}
			break;
		}
	}
	while (units--)
		up(&sem);
	for (int i = 0; i < 2; i++)
		if (held[i])
			mempool_free(&pool, held[i]);
	complete(&finished);
}

static void random_mix_balances(void **state)
{
	uint32_t m[4];
	int done = 0;

	(void)state;
	memset(sent, 0, sizeof(sent));
	memset(received, 0, sizeof(received));
	next_id = 0;
	compl_given = compl_taken = 0;
	pool_owner_bad = mutex_bad = msg_bad = 0;
	sema_init(&sem, SEM_UNITS);
	mutex_init(&mtx);
	init_completion(&compl);
	init_completion(&finished);
	msgq_init(&q, ring, 6 * 16, 16);
	mempool_init(&pool, region, sizeof(region), 64);
	event_flags_init(&ev);
	memset(workers, 0, sizeof(workers));
	for (int i = 0; i < WORKERS; i++)
		workers[i] = host_spawn_suspended("fuzz", worker, (void *)(intptr_t)i,
						  HOST_PRIO_MAIN - 3 + (i % 3) * 2);
	preempt_disable();              /* all queued before the first runs */
	for (int i = 0; i < WORKERS; i++)
		thread_resume(workers[i]);
	preempt_enable();
	/* Every worker ends within a bounded time: none stays stranded. */
	for (int round = 0; done < WORKERS; round++) {
		/* A worker may suspend another after its last resume: resume again. */
		for (int i = 0; i < WORKERS; i++)
			thread_resume(workers[i]);
		if (wait_for_completion_timeout(&finished, 100)) {
			done++;
		} else if (round > 100) {
			for (int i = 0; i < WORKERS; i++)
				printf("worker %d: state %d\n", i, workers[i]->state);
			fail_msg("only %d of %d workers finished", done, WORKERS);
		}
	}
	for (int i = 0; i < WORKERS; i++)
		thread_join(workers[i]);
	while (msgq_try_receive(&q, m) == 0)
		received[m[0]]++;
	for (unsigned int id = 0; id < next_id; id++)
		if (sent[id] != received[id])
			fail_msg("message %u sent %u times, received %u times", id, sent[id],
				 received[id]);
	printf("fuzz: %u messages tried, %lu completions taken, %lu ticks\n", next_id,
	       compl_taken, (unsigned long)jiffies_read());
	assert_int_equal(msg_bad, 0);
	assert_int_equal(sem.count, SEM_UNITS);
	assert_true(list_empty(&sem.waiters.waiters));
	assert_int_equal(mempool_nr_free(&pool), pool.nr_blocks);
	assert_int_equal(pool_owner_bad, 0);
	assert_int_equal(mutex_bad, 0);
	assert_null(mtx.owner);
	assert_int_equal(compl_given, compl_taken + compl.done);
	assert_true(next_id > 1000);
	assert_true(compl_taken > 10);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		HOST_TEST(random_mix_balances),
	};

	return host_run_groups("services_fuzz", NULL, 0, tests, sizeof(tests) / sizeof(tests[0]));
}
