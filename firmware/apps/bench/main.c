/* The bench image (`make bench`): every figure, a table and a JSON block. */
#include <stdio.h>
#include <lokal/app.h>
#include <lokal/thread.h>
#include "bench.h"
#include "pages.h"

int app_main(void)
{
	struct sched_stats st;

	printf("bench: KMAP_DEFER=%d, HZ=%d; counter %lu Hz (resolution %lu.%02lu ns); "
	       "under -icount shift=0 one instruction is one ns\n",
	       CONFIG_KMAP_DEFER, CONFIG_HZ, (unsigned long)clock_hz(),
	       (unsigned long)(100000000000ull / clock_hz() / 100),
	       (unsigned long)(100000000000ull / clock_hz() % 100));
	bench_pages_init();
	bench_switch();
	bench_kmap();
	bench_dma();
	bench_wakeup(CONFIG_BENCH_WAKES, true);
	bench_events();
	sched_get_stats(&st);
	printf("bench: %lu switches, %lu with kmaps, %lu maps restored\n",
	       st.switches, st.kmap_switches, st.kmaps_restored);
	bench_report();
	return 0;
}
