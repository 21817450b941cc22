/*
 * The measurement: a one-shot timer armed for a known expiry, its
 * handler, and the measuring thread at the highest priority.
 *
 * Each sample is a counter read minus the expiry the arm computed, so time
 * spent with interrupts or preemption off anywhere counts. The expiry is
 * the counter read just before the arm plus the delay, so a sample may
 * include the few instructions of the arm itself (at most a tick: an arm
 * that took longer, because an interrupt came in between, is redone):
 * figures are upper bounds. One counter read's own cost (the calibration, measured at the
 * start) is subtracted from each sample. Both events also drive the wake
 * marker pin: up in the handler, down in the thread, so a logic analyzer
 * sees the handler-to-thread part of every period.
 */
#include <stdio.h>
#include <lokal/irq.h>
#include <lokal/mutex.h>
#include <lokal/platform.h>
#include <lokal/thread.h>
#include "cyclic.h"

volatile bool cyclic_stop;
static struct semaphore wake;
static volatile uint32_t expiry;        /* counter value of the armed expiry */
static volatile uint32_t handler_at;    /* counter value the handler read */
static uint32_t rng = 2463534242u;
static const struct cyclic_params *params;
static struct cyclic_result *result;

/* A sample: counter ticks from the expiry to t, less one read; 0 if t came first. */
static uint32_t since_expiry(uint32_t t)
{
	int32_t ticks = (int32_t)(t - expiry) - (int32_t)result->calib_ticks;

	return ticks > 0 ? (uint32_t)ticks : 0;
}

/* The next delay: period..1.5 period, so expiries fall at every phase of the load. */
static uint32_t next_delay_us(uint32_t period_us)
{
	rng ^= rng << 13;
	rng ^= rng >> 17;
	rng ^= rng << 5;
	return period_us + rng % (period_us / 2 + 1);
}

static void timer_irq(unsigned int irq, void *arg)
{
	(void)irq; (void)arg;
	handler_at = clock_read();
	wake_marker_set(1);
	oneshot_timer_ack();
	up(&wake);
}

/* One counter read's cost: the least of many back-to-back pairs. */
static uint32_t calibrate(void)
{
	uint32_t best = UINT32_MAX;

	for (int i = 0; i < 64; i++) {
		uint32_t a = clock_read();
		uint32_t b = clock_read();

		if (b - a < best)
			best = b - a;
	}
	return best;
}


static void measurer(void *arg)
{
	struct mutex *m = params->load & 1u << LOAD_MUTEX ? cyclic_load_mutex() : NULL;

	(void)arg;
	uint32_t arm_ticks = UINT32_MAX;        /* the quickest arm so far, read to read */

	for (unsigned int k = 0; k < params->periods && !cyclic_stop; k++) {
		uint32_t us = next_delay_us(params->period_us), now, t0, took, ns;
		unsigned long flags;

		/*
		 * An interrupt between the read and the arm would start the timer
		 * late and count its length as latency: arm again (the timer
		 * restarts) while an arm takes more than a tick longer than the
		 * quickest one (how long an arm takes is the board's).
		 */
		for (;;) {
			t0 = clock_read();
			ns = oneshot_timer_arm(us);     /* the delay in the timer's own ticks */
			expiry = t0 + (uint32_t)((uint64_t)ns * clock_hz() / 1000000000u);
			took = clock_read() - t0;
			if (took < arm_ticks)
				arm_ticks = took;
			if (took <= arm_ticks + 1)
				break;
		}
		down(&wake);
		if (m)
			mutex_lock(m);
		/* One instant for the pin and the clock: an interrupt between them would part them. */
		flags = local_irq_save();
		now = clock_read();
		wake_marker_set(0);
		local_irq_restore(flags);
		if (m)
			mutex_unlock(m);
		cyclic_hist_add(&result->handler, since_expiry(handler_at));
		cyclic_hist_add(&result->thread, since_expiry(now));
		cyclic_hist_add(&result->wake, now - handler_at);
	}
}

bool cyclic_run(const struct cyclic_params *p, struct cyclic_result *r)
{
	struct thread *t;

	*r = (struct cyclic_result){ 0 };
	r->handler.min = r->thread.min = r->wake.min = UINT32_MAX;
	r->calib_ticks = calibrate();
	cyclic_stop = false;
	params = p;
	result = r;
	sema_init(&wake, 0);
	if (request_irq(oneshot_timer_irq(), timer_irq, NULL)) {
		printf("cyclic: the one-shot timer's interrupt is taken\n");
		return false;
	}
	if (!cyclic_load_start(p->load)) {
		free_irq(oneshot_timer_irq());
		return false;
	}
	t = thread_create("cyclic", measurer, NULL, PRIO_MAX, 2048);
	if (t)
		thread_join(t);
	cyclic_load_stop();
	free_irq(oneshot_timer_irq());
	if (!t)
		printf("cyclic: cannot create the measuring thread\n");
	return t != NULL;
}
